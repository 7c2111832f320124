//! The tool set (docs/mcp.md "Tools"): Playwright MCP's names where the
//! meaning is the same, so a host switches by changing one line of its
//! configuration. Each tool here only unpacks its input and hands it to
//! its module (`look`, `act`, `nav`, `shot`, `crate::run_task`).

pub mod act;
pub mod look;
pub mod nav;
pub mod params;
pub mod shot;

use crate::server::{to_result, SentienceMcp};
use act::{gate, Step};
use params::*;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Implementation, ServerCapabilities, ServerConfig};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{tool, tool_handler, tool_router, ErrorData, ServerHandler};
use sentience_agent::ToolName;
use serde_json::json;

type Out = Result<CallToolResult, ErrorData>;

/// What the server tells the host (and its model) once, at the start.
const INSTRUCTIONS: &str = "Browser tools. browser_snapshot lists the page's actionable elements, one a line: `id role \"text\" marks @x,y`, most important first, within a token budget. Act with the ids (browser_click id=12). Ids belong to one page: after a navigation take a new snapshot. Actions answer with what changed.";

#[tool_router(router = tools, vis = "pub(crate)")]
impl SentienceMcp {
    #[tool(description = "Open a URL in the current tab; answers with the page's listing.")]
    async fn browser_navigate(&self, Parameters(p): Parameters<NavigateParams>) -> Out {
        Ok(to_result(self.navigate(p).await))
    }

    #[tool(description = "Go back to the previous page.")]
    async fn browser_navigate_back(&self) -> Out {
        Ok(to_result(self.navigate_back().await))
    }

    #[tool(
        description = "List the page's actionable elements (id role \"text\" …), most important first, within max_tokens; optional query filter, viewport only, or only what changed (diff)."
    )]
    async fn browser_snapshot(&self, Parameters(p): Parameters<SnapshotParams>) -> Out {
        Ok(to_result(self.snapshot(p).await))
    }

    #[tool(description = "Click an element (id from the snapshot).")]
    async fn browser_click(
        &self,
        Parameters(p): Parameters<ClickParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Out {
        let r = match p.target.required() {
            Ok(id) => {
                self.act(
                    vec![Step::on(
                        "click",
                        id,
                        json!({}),
                        "Clicked",
                        gate(ToolName::Click, json!({"id": id})),
                    )],
                    &ctx,
                )
                .await
            }
            Err(e) => Err(e),
        };
        Ok(to_result(r))
    }

    #[tool(description = "Type text into a field (replaces its value); submit presses Enter.")]
    async fn browser_type(
        &self,
        Parameters(p): Parameters<TypeParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Out {
        let r = match p.target.required() {
            Ok(id) => {
                let mut steps = vec![Step::on(
                    "type",
                    id,
                    json!({"text": p.text}),
                    "Typed into",
                    gate(ToolName::Type, json!({"id": id, "text": p.text})),
                )];
                if p.submit == Some(true) {
                    steps.push(Step {
                        op: "press",
                        args: json!({"key": "Enter"}),
                        id: None,
                        verb: "Pressed Enter".into(),
                        gate: gate(ToolName::Press, json!({"key": "Enter", "id": id})),
                    });
                }
                self.act(steps, &ctx).await
            }
            Err(e) => Err(e),
        };
        Ok(to_result(r))
    }

    #[tool(
        description = "Fill several fields at once: text fields, checkboxes and radios (\"true\"/\"false\"), selects."
    )]
    async fn browser_fill_form(
        &self,
        Parameters(p): Parameters<FillFormParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Out {
        Ok(to_result(self.fill_form(p, &ctx).await))
    }

    #[tool(description = "Choose option(s) of a select, listbox or combobox by value or text.")]
    async fn browser_select_option(
        &self,
        Parameters(p): Parameters<SelectParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Out {
        let r = match p.target.required() {
            Ok(id) if !p.values.is_empty() => {
                let steps = p
                    .values
                    .iter()
                    .map(|v| {
                        Step::on(
                            "select",
                            id,
                            json!({"value": v}),
                            &format!("Chose {v:?} in"),
                            None,
                        )
                    })
                    .collect();
                self.act(steps, &ctx).await
            }
            Ok(_) => Err(crate::error::McpError::BadInput(
                "values is empty: which option?".into(),
            )),
            Err(e) => Err(e),
        };
        Ok(to_result(r))
    }

    #[tool(description = "Hover the pointer over an element.")]
    async fn browser_hover(
        &self,
        Parameters(p): Parameters<HoverParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Out {
        let r = match p.target.required() {
            Ok(id) => {
                self.act(
                    vec![Step::on("hover", id, json!({}), "Hovered", None)],
                    &ctx,
                )
                .await
            }
            Err(e) => Err(e),
        };
        Ok(to_result(r))
    }

    #[tool(description = "Press a key on the focused element (Enter submits its form).")]
    async fn browser_press_key(
        &self,
        Parameters(p): Parameters<PressKeyParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Out {
        let step = Step {
            op: "press",
            args: json!({"key": p.key}),
            id: None,
            verb: format!("Pressed {}", p.key),
            gate: gate(ToolName::Press, json!({"key": p.key})),
        };
        Ok(to_result(self.act(vec![step], &ctx).await))
    }

    #[tool(description = "Scroll an element into view, or the page by direction and amount.")]
    async fn browser_scroll(
        &self,
        Parameters(p): Parameters<ScrollParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Out {
        let r = match p.target.optional() {
            Ok(Some(id)) => {
                self.act(
                    vec![Step::on("scroll", id, json!({}), "Scrolled to", None)],
                    &ctx,
                )
                .await
            }
            Ok(None) => {
                let step = Step {
                    op: "scroll",
                    args: act::scroll_delta(p.direction, p.amount),
                    id: None,
                    verb: "Scrolled".into(),
                    gate: None,
                };
                self.act(vec![step], &ctx).await
            }
            Err(e) => Err(e),
        };
        Ok(to_result(r))
    }

    #[tool(
        description = "Wait for text to show (text), to go (textGone), for an element (query), or for time seconds."
    )]
    async fn browser_wait_for(
        &self,
        Parameters(p): Parameters<WaitForParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Out {
        Ok(to_result(self.wait_for(p, &ctx).await))
    }

    #[tool(
        description = "Screenshot of the viewport or an element (JPEG or PNG, under max_bytes); annotate draws element ids."
    )]
    async fn browser_take_screenshot(&self, Parameters(p): Parameters<ScreenshotParams>) -> Out {
        Ok(to_result(self.screenshot(p).await))
    }

    #[tool(description = "List, open, select or close tabs.")]
    async fn browser_tabs(&self, Parameters(p): Parameters<TabsParams>) -> Out {
        Ok(to_result(self.tabs_tool(p).await))
    }

    #[tool(
        description = "Find elements with a query, e.g. role=button text~'sign in' (fields: role, text, value, clickable, in_viewport, checked, …)."
    )]
    async fn browser_find(&self, Parameters(p): Parameters<FindParams>) -> Out {
        Ok(to_result(self.find(p).await))
    }

    #[tool(
        description = "Close the browser (managed) or the tabs this agent opened (your own Chrome)."
    )]
    async fn browser_close(&self) -> Out {
        Ok(to_result(self.close().await))
    }

    #[tool(
        description = "Hand a whole task to the Sentience agent (e.g. 'Log in as \"ada\" with password \"x\"'); returns its result and steps."
    )]
    async fn sentience_run_task(
        &self,
        Parameters(p): Parameters<RunTaskParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Out {
        Ok(to_result(self.run_task(p, &ctx).await))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for SentienceMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("sentience", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }
}
