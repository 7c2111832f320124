//! Chromium over CDP (chromiumoxide): launching sessions on persistent
//! profiles with the extension loaded, navigation, screenshots and the
//! inspection calls. Tabs are in `cdp_tabs`, input in `cdp_input` and
//! `input_channel`, the fixed viewport in `cdp_viewport`.
//! CDP commands are sent as raw JSON (`Raw`) so that a newer Chromium's
//! unknown enum values cannot break typed deserialisation.

use super::attach_retry::{while_detached, DETACHED_FOR_AT_MOST};
use super::cdp_input::Event;
use super::cdp_tabs::TabRegistry;
use super::cdp_viewport::WindowFrame;
use super::input_channel::InputChannel;
use super::{
    BrowserLauncher, BrowserSession, ClickKind, HistoryStep, LaunchRequest, ProfileLock, TabInfo,
    ViewportInfo,
};
use crate::error::{ToolError, ToolResult};
use crate::geometry::{Point, Size, ViewportPlacement};
use crate::imaging::Capture;
use crate::keys::KeyCombo;
use async_trait::async_trait;
use chromiumoxide::browser::Browser;
use chromiumoxide::types::{Command, Method, MethodId};
use chromiumoxide::Page;
use futures::StreamExt;
use serde::Serialize;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Mutex;

/// A CDP command given by name and JSON parameters; its result is JSON.
#[derive(Debug)]
pub(crate) struct Raw {
    method: &'static str,
    params: Value,
}

impl Raw {
    pub(crate) fn new(method: &'static str, params: Value) -> Raw {
        Raw { method, params }
    }
}

impl Serialize for Raw {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.params.serialize(s)
    }
}

impl Method for Raw {
    fn identifier(&self) -> MethodId {
        self.method.into()
    }
}

impl Command for Raw {
    type Response = Value;
}

/// How long one CDP call may take before the session is judged stuck.
pub(crate) const CALL_TIMEOUT: Duration = Duration::from_secs(20);
/// Navigations (load event) may take longer.
pub(crate) const NAVIGATION_TIMEOUT: Duration = Duration::from_secs(45);

pub(crate) async fn timed<T>(
    what: &str,
    limit: Duration,
    fut: impl std::future::Future<Output = chromiumoxide::Result<T>>,
) -> ToolResult<T> {
    match tokio::time::timeout(limit, fut).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(ToolError::backend(what, e)),
        Err(_) => Err(ToolError::Timeout(what.to_string(), limit.as_millis())),
    }
}

pub(crate) async fn page_call(
    page: &Page,
    method: &'static str,
    params: Value,
) -> ToolResult<Value> {
    timed(method, CALL_TIMEOUT, page.execute(Raw::new(method, params)))
        .await
        .map(|r| r.result)
}

/// Evaluates `expression` in the page, awaiting promises, by value.
pub(crate) async fn eval(page: &Page, expression: &str) -> ToolResult<Value> {
    eval_in(page, expression, None, "page script").await
}

/// Evaluates `expression` in execution context `context` (the page's main
/// world when `None`); `who` names what failed in the error.
pub(crate) async fn eval_in(
    page: &Page,
    expression: &str,
    context: Option<i64>,
    who: &str,
) -> ToolResult<Value> {
    let mut params = json!({"expression": expression, "awaitPromise": true, "returnByValue": true});
    if let Some(id) = context {
        params["contextId"] = id.into();
    }
    let r = page_call(page, "Runtime.evaluate", params).await?;
    if let Some(ex) = r.get("exceptionDetails") {
        let text = ex
            .pointer("/exception/description")
            .or_else(|| ex.get("text"))
            .and_then(Value::as_str)
            .unwrap_or("exception");
        return Err(ToolError::Backend(format!("{who} failed: {text}")));
    }
    Ok(r.pointer("/result/value").cloned().unwrap_or(Value::Null))
}

pub struct ChromiumLauncher {
    pub executable: PathBuf,
    /// The unpacked extension (repo root with pkg/ built), loaded when set.
    pub extension_dir: Option<PathBuf>,
    /// Extra command-line switches (tests use `force-device-scale-factor`).
    pub extra_args: Vec<String>,
}

#[async_trait]
impl BrowserLauncher for ChromiumLauncher {
    fn driver_name(&self) -> &'static str {
        "cdp"
    }

    fn available(&self) -> bool {
        self.executable.exists()
    }

    async fn launch(&self, req: LaunchRequest) -> ToolResult<Arc<dyn BrowserSession>> {
        if !self.executable.exists() {
            return Err(ToolError::Unavailable(format!(
                "Browser not found at {} (pass --browser PATH)",
                self.executable.display()
            )));
        }
        std::fs::create_dir_all(&req.profile_dir).map_err(|e| {
            ToolError::backend(
                &format!("creating the profile {}", req.profile_dir.display()),
                e,
            )
        })?;
        ProfileLock::ensure_free(&req.profile_dir)?;
        let config = super::chromium_config(&super::Launch {
            executable: &self.executable,
            profile_dir: &req.profile_dir,
            window: (req.viewport.width, req.viewport.height),
            headless: req.headless,
            extension: self.extension_dir.as_deref(),
            request_timeout: CALL_TIMEOUT,
        })
        .args([
            "no-default-browser-check",
            "password-store=basic",
            // Input and frames at full speed even when the window is
            // hidden or not focused (as automation tools launch it).
            "disable-background-timer-throttling",
            "disable-backgrounding-occluded-windows",
            "disable-renderer-backgrounding",
            "disable-ipc-flooding-protection",
        ])
        .args(self.extra_args.iter().map(String::as_str));
        let config = config.build().map_err(ToolError::Backend)?;
        let (browser, mut handler) =
            tokio::time::timeout(Duration::from_secs(40), Browser::launch(config))
                .await
                .map_err(|_| ToolError::Timeout("launching the browser".into(), 40_000))?
                .map_err(|e| ToolError::backend("launching the browser", e))?;
        let input = match InputChannel::connect(browser.websocket_address()).await {
            Ok(i) => i,
            Err(e) => {
                let mut browser = browser;
                let _ = browser.kill().await;
                return Err(e);
            }
        };
        let handler_done = Arc::new(AtomicBool::new(false));
        let done = handler_done.clone();
        let handler = tokio::spawn(async move {
            // Errors are unknown events from a newer Chromium: not fatal.
            while handler.next().await.is_some() {}
            done.store(true, Ordering::SeqCst);
        });
        let session = CdpSession {
            browser: Mutex::new(browser),
            handler,
            handler_done,
            input,
            tabs: Mutex::new(TabRegistry::default()),
            headless: req.headless,
            viewport: req.viewport,
            frame: std::sync::Mutex::default(),
            device_pixel_ratio: std::sync::Mutex::new(1.0),
        };
        let start = req.start_url.as_deref().unwrap_or("about:blank");
        if let Err(e) = session.open_first_tab(start).await {
            session.close().await;
            return Err(e);
        }
        Ok(Arc::new(session))
    }
}

pub struct CdpSession {
    pub(crate) browser: Mutex<Browser>,
    handler: tokio::task::JoinHandle<()>,
    handler_done: Arc<AtomicBool>,
    /// Input events go through their own connection (see input_channel).
    input: InputChannel,
    pub(crate) tabs: Mutex<TabRegistry>,
    pub(super) headless: bool,
    pub(super) viewport: Size,
    /// The browser window's own UI around the viewport (headed; measured
    /// when the window is fitted at start).
    pub(super) frame: std::sync::Mutex<WindowFrame>,
    /// The screen's device pixel ratio (read from CDP at start and at each
    /// screenshot).
    pub(super) device_pixel_ratio: std::sync::Mutex<f64>,
}

impl CdpSession {
    pub(crate) async fn browser_call(
        &self,
        method: &'static str,
        params: Value,
    ) -> ToolResult<Value> {
        let browser = self.browser.lock().await;
        timed(
            method,
            CALL_TIMEOUT,
            browser.execute(Raw::new(method, params)),
        )
        .await
        .map(|r| r.result)
    }

    /// Reuses the tab Chromium opens at start (closing extras), on `url`,
    /// with no history before it.
    async fn open_first_tab(&self, url: &str) -> ToolResult<()> {
        let tabs = self.refresh_tabs().await?;
        if let Some(first) = tabs.first() {
            self.switch_tab(first.id).await?;
            for extra in &tabs[1..] {
                self.close_tab(Some(extra.id)).await?;
            }
        } else {
            let t = self.new_tab(None).await?;
            self.switch_tab(t.id).await?;
        }
        // Chromium's first tab may still be swapping in its new-tab page
        // when we take it over (seen once in about twenty starts).
        while_detached(DETACHED_FOR_AT_MOST, || self.start_on(url)).await?;
        let page = self.active_page().await?;
        if self.headless {
            self.fix_viewport(&page).await?;
        } else {
            self.fit_window(&page).await?;
        }
        self.read_device_pixel_ratio(&page).await.map(drop)
    }

    /// Shows `url` in the active tab as its first page: Chromium's own
    /// new-tab page, when it loaded before our navigation, is no history
    /// entry to go back to.
    async fn start_on(&self, url: &str) -> ToolResult<()> {
        if url != "about:blank" {
            self.navigate(url).await?;
        }
        let page = self.active_page().await?;
        page_call(&page, "Page.resetNavigationHistory", json!({}))
            .await
            .map(drop)
    }

    /// Sends an action's input events to the page, in order, and waits
    /// until Chromium has handled them.
    async fn input(&self, page: &Page, events: &[Event]) -> ToolResult<()> {
        // Long texts go in slices, so that one write stays small.
        for chunk in events.chunks(256) {
            self.input
                .dispatch(page.target_id().as_ref(), chunk)
                .await?;
        }
        Ok(())
    }

    /// The browser process has exited or its connection is gone (cheap:
    /// no round trip to the browser).
    pub(crate) async fn exited(&self) -> bool {
        if self.handler_done.load(Ordering::SeqCst) {
            return true;
        }
        matches!(self.browser.lock().await.try_wait(), Ok(Some(_)))
    }

    pub(super) async fn window_of(&self, page: &Page) -> ToolResult<Value> {
        self.browser_call(
            "Browser.getWindowForTarget",
            json!({"targetId": page.target_id().as_ref()}),
        )
        .await
    }

    async fn history_entries(&self, page: &Page) -> ToolResult<(usize, Vec<Value>)> {
        // Right after a navigation commits, the tab may still be swapping in
        // the new document's frame host (seen under load in CI).
        let h = while_detached(DETACHED_FOR_AT_MOST, || {
            page_call(page, "Page.getNavigationHistory", json!({}))
        })
        .await?;
        let index = h["currentIndex"].as_u64().unwrap_or(0) as usize;
        let entries = h["entries"].as_array().cloned().unwrap_or_default();
        Ok((index, entries))
    }

    /// Waits until the active document is the history entry `index` and has
    /// loaded (back/forward may be served from the back-forward cache, which
    /// fires no load event, so this polls instead of waiting for one).
    async fn wait_for_entry(&self, page: &Page, index: usize) -> ToolResult<()> {
        let deadline = tokio::time::Instant::now() + NAVIGATION_TIMEOUT;
        loop {
            let (current, _) = self.history_entries(page).await?;
            if current == index {
                let state = eval(page, "document.readyState")
                    .await
                    .unwrap_or(Value::Null);
                if state == "complete" {
                    return Ok(());
                }
            }
            if tokio::time::Instant::now() > deadline {
                return Err(ToolError::Timeout(
                    "history navigation".into(),
                    NAVIGATION_TIMEOUT.as_millis(),
                ));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

#[async_trait]
impl BrowserSession for CdpSession {
    fn headless(&self) -> bool {
        self.headless
    }

    async fn is_alive(&self) -> bool {
        if self.exited().await {
            return false;
        }
        let browser = self.browser.lock().await;
        let probe = browser.execute(Raw::new("Browser.getVersion", json!({})));
        matches!(
            tokio::time::timeout(Duration::from_secs(3), probe).await,
            Ok(Ok(_))
        )
    }

    async fn current_url(&self) -> ToolResult<String> {
        let page = self.active_page().await?;
        let (index, entries) = self.history_entries(&page).await?;
        Ok(entries
            .get(index)
            .and_then(|e| e["url"].as_str())
            .unwrap_or("about:blank")
            .to_string())
    }

    async fn navigate(&self, url: &str) -> ToolResult<String> {
        let page = self.active_page().await?;
        let r = page_call(&page, "Page.navigate", json!({"url": url})).await?;
        if let Some(err) = r["errorText"].as_str().filter(|e| !e.is_empty()) {
            return Err(ToolError::Backend(format!(
                "Navigation to {url} failed: {err}"
            )));
        }
        // Page.navigate answers once the new document is committed; the
        // history then has its entry, and its readyState tells the load.
        let (index, _) = self.history_entries(&page).await?;
        self.wait_for_entry(&page, index).await?;
        self.current_url().await
    }

    async fn history(&self, step: HistoryStep) -> ToolResult<String> {
        let page = self.active_page().await?;
        if step == HistoryStep::Reload {
            timed("reload", NAVIGATION_TIMEOUT, page.reload()).await?;
            return self.current_url().await;
        }
        let (index, entries) = self.history_entries(&page).await?;
        let target = match step {
            HistoryStep::Back if index > 0 => index - 1,
            HistoryStep::Forward if index + 1 < entries.len() => index + 1,
            HistoryStep::Back => {
                return Err(ToolError::Conflict(
                    "Cannot go back: this is the first page of the tab's history".into(),
                ))
            }
            _ => {
                return Err(ToolError::Conflict(
                    "Cannot go forward: this is the last page of the tab's history".into(),
                ))
            }
        };
        let entry_id = entries[target]["id"].clone();
        page_call(
            &page,
            "Page.navigateToHistoryEntry",
            json!({"entryId": entry_id}),
        )
        .await?;
        self.wait_for_entry(&page, target).await?;
        self.current_url().await
    }

    async fn tabs(&self) -> ToolResult<Vec<TabInfo>> {
        self.refresh_tabs().await
    }

    async fn new_tab(&self, url: Option<&str>) -> ToolResult<TabInfo> {
        self.open_tab(url.unwrap_or("about:blank")).await
    }

    async fn close_tab(&self, id: Option<u64>) -> ToolResult<usize> {
        self.close_tab_by_id(id).await
    }

    async fn switch_tab(&self, id: u64) -> ToolResult<TabInfo> {
        self.switch_to(id).await
    }

    async fn viewport(&self) -> ToolResult<ViewportInfo> {
        // The size is the emulated one (fix_viewport): nothing to ask.
        let page = self.active_page().await?;
        let size = self.viewport;
        let dpr = self.device_pixel_ratio.lock().map(|v| *v).unwrap_or(1.0);
        let (mut left, mut top, mut chrome_height) = (0.0, 0.0, 0.0);
        if !self.headless {
            // The window may have moved: its bounds come from the browser.
            let win = self.window_of(&page).await?;
            let b = |k: &str| {
                win.pointer(&format!("/bounds/{k}"))
                    .and_then(Value::as_f64)
                    .unwrap_or(0.0)
            };
            let frame = self.frame.lock().map(|f| *f).unwrap_or_default();
            chrome_height = frame.top;
            left = b("left") + frame.border;
            top = b("top") + frame.top;
        }
        Ok(ViewportInfo {
            placement: ViewportPlacement { size, left, top },
            device_pixel_ratio: dpr,
            chrome_height,
            headless: self.headless,
        })
    }

    async fn screenshot(&self) -> ToolResult<Capture> {
        let page = self.active_page().await?;
        let (info, dpr) = futures::try_join!(self.viewport(), self.read_device_pixel_ratio(&page))?;
        let mut params = json!({"format": "png", "fromSurface": true, "captureBeyondViewport": false, "optimizeForSpeed": true});
        if (dpr - 1.0).abs() > f64::EPSILON {
            // HiDPI: capture at CSS-pixel size, so screenshot pixels are
            // click coordinates (docs/tools.md "Screenshots and coordinates").
            let s = info.placement.size;
            params["clip"] =
                json!({"x": 0, "y": 0, "width": s.width, "height": s.height, "scale": 1.0 / dpr});
        }
        let r = page_call(&page, "Page.captureScreenshot", params).await?;
        let data = r["data"]
            .as_str()
            .ok_or_else(|| ToolError::Backend("the browser sent no screenshot".into()))?;
        let png = base64::Engine::decode(&base64::engine::general_purpose::STANDARD, data)
            .map_err(|e| ToolError::backend("decoding the screenshot", e))?;
        let mut cap = Capture::from_png(png)?;
        if cap.size != info.placement.size {
            cap = cap.resized_to(info.placement.size)?;
        }
        Ok(cap)
    }

    async fn click(&self, at: Point, kind: ClickKind) -> ToolResult<Option<TabInfo>> {
        let before: Vec<u64> = self.tabs.lock().await.ids();
        let created = self.input.pages_created();
        let page = self.active_page().await?;
        self.input(&page, &super::cdp_input::click(at, kind))
            .await?;
        // A tab the click opened was announced before the acknowledgement
        // (input_channel): the target list is read only then.
        if self.input.pages_created() == created {
            return Ok(None);
        }
        self.tab_opened_since(&before).await
    }

    async fn focus_selector(&self, selector: &str) -> ToolResult<()> {
        let page = self.active_page().await?;
        let sel = serde_json::to_string(selector).unwrap_or_default();
        let rect = eval(
            &page,
            &format!(
                "(() => {{ let el; try {{ el = document.querySelector({sel}); }} catch (e) {{ return 'invalid'; }}
                 if (!el) return null; el.scrollIntoView({{block: 'center', inline: 'center'}});
                 const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
            ),
        )
        .await?;
        match rect {
            Value::Array(a) => {
                let p = Point {
                    x: a.first().and_then(Value::as_f64).unwrap_or(0.0),
                    y: a.get(1).and_then(Value::as_f64).unwrap_or(0.0),
                };
                self.input(&page, &super::cdp_input::click(p, ClickKind::Single))
                    .await
            }
            Value::String(_) => Err(ToolError::bad_request(format!(
                "Invalid CSS selector: {selector}"
            ))),
            _ => Err(ToolError::NotFound(format!(
                "No element matches the selector: {selector}"
            ))),
        }
    }

    async fn type_keystrokes(&self, text: &str) -> ToolResult<()> {
        let page = self.active_page().await?;
        self.input(&page, &super::cdp_input::typing(text)).await
    }

    async fn insert_text(&self, text: &str) -> ToolResult<()> {
        let page = self.active_page().await?;
        self.input(&page, &[("Input.insertText", json!({"text": text}))])
            .await
    }

    async fn scroll(&self, dx: f64, dy: f64) -> ToolResult<()> {
        let info = self.viewport().await?;
        let page = self.active_page().await?;
        let s = info.placement.size;
        let centre = Point {
            x: f64::from(s.width) / 2.0,
            y: f64::from(s.height) / 2.0,
        };
        self.input(&page, &[super::cdp_input::wheel(centre, dx, dy)])
            .await?;
        // Let the scroll reach the page before answering.
        eval(
            &page,
            "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))",
        )
        .await
        .map(drop)
    }

    async fn keypress(&self, combo: &KeyCombo) -> ToolResult<()> {
        let page = self.active_page().await?;
        self.input(&page, &super::cdp_input::keypress(combo)).await
    }

    async fn accessibility_tree(&self) -> ToolResult<String> {
        let page = self.active_page().await?;
        let r = page_call(&page, "Accessibility.getFullAXTree", json!({})).await?;
        Ok(super::ax_tree::render(&r["nodes"]))
    }

    async fn element_at(&self, at: Point) -> ToolResult<Value> {
        let page = self.active_page().await?;
        eval(&page, &format!("({ELEMENT_AT})({}, {})", at.x, at.y)).await
    }

    async fn evaluate(&self, expression: &str) -> ToolResult<Value> {
        let page = self.active_page().await?;
        eval(&page, expression).await
    }

    async fn extension_call(&self, op: &str, args: &Value) -> ToolResult<Value> {
        let page = self.active_page().await?;
        super::extension_world::call(&page, op, args).await
    }

    async fn close(&self) {
        let exited = self.exited().await;
        let mut browser = self.browser.lock().await;
        if !exited {
            // Browser.close lets Chromium save the profile (cookies, logins).
            let _ = tokio::time::timeout(Duration::from_secs(10), browser.close()).await;
        }
        if tokio::time::timeout(Duration::from_secs(10), browser.wait())
            .await
            .is_err()
        {
            let _ = browser.kill().await;
        }
        self.handler.abort();
    }
}

/// `element_info` (docs/contracts/tools.md §15): the element at a viewport point.
const ELEMENT_AT: &str = r#"(x, y) => {
  const el = document.elementFromPoint(x, y);
  if (!el) return {found: false};
  const r = el.getBoundingClientRect();
  const tag = el.tagName.toLowerCase();
  const cls = typeof el.className === 'string' ? el.className : (el.getAttribute('class') || '');
  const role = el.getAttribute('role') || '';
  const actionable = el.closest('a[href],button,input,select,textarea,label,summary,[onclick],[role=button],[role=link],[role=checkbox],[role=tab],[role=menuitem],[contenteditable=""],[contenteditable=true]');
  const clickable = !!actionable || getComputedStyle(el).cursor === 'pointer';
  const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ').slice(0, 200);
  return {found: true, tag, id: el.id || '', className: cls, text, role, clickable,
          rect: {x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height)}};
}"#;
