//! Choosing the vision provider and cross-checking two (docs/contracts/tools.md
//! §17.3; docs/hands.md).

use crate::config::HandsConfig;
use crate::io::Http;
use crate::providers::{
    GeminiProvider, LocateRequest, Located, LuxProvider, OpenAiProvider, Provider, ProviderError,
    VisionProvider,
};
use crate::tools::ToolClient;
use serde::{Deserialize, Serialize};
use std::future::{poll_fn, Future};
use std::pin::pin;
use std::task::Poll;

/// docs/contracts/tools.md §17.3 `task` fields the rules read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TaskHints {
    /// `custom`, `artistic`, or anything else.
    pub ui_type: Option<String>,
    pub has_small_text: bool,
    pub has_complex_form: bool,
}

/// docs/contracts/tools.md §17.3 `context` fields the rules read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct VisionContext {
    /// `browser` or `desktop`.
    pub scope: String,
    /// `excel`, `outlook`, `windows`, …
    pub app: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Choice {
    Lux,
    Gemini,
    Both,
}

/// docs/contracts/tools.md §17.3 `chooseVisionProvider`, rule for rule, in the spec's order.
pub fn choose_vision_provider(task: &TaskHints, ctx: &VisionContext) -> Choice {
    // REGOLA 1: desktop → always Lux.
    if ctx.scope == "desktop" {
        return Choice::Lux;
    }
    // REGOLA 2: custom / artistic UI → Gemini.
    let ui = task.ui_type.as_deref().map(str::to_lowercase);
    if matches!(ui.as_deref(), Some("custom" | "artistic")) {
        return Choice::Gemini;
    }
    // REGOLA 3: Windows / Office icons → Lux.
    let app = ctx.app.as_deref().map(str::to_lowercase);
    if matches!(app.as_deref(), Some("excel" | "outlook" | "windows")) {
        return Choice::Lux;
    }
    // REGOLA 4: forms and small text → ask both and compare.
    if task.has_small_text || task.has_complex_form {
        return Choice::Both;
    }
    Choice::Gemini
}

/// The two slots of the spec ("lux" and "gemini") filled with any
/// providers, and an optional referee asked when they disagree.
#[derive(Debug, Clone, PartialEq)]
pub struct VisionSet {
    pub lux: Provider,
    pub gemini: Provider,
    pub referee: Option<Provider>,
}

impl VisionSet {
    /// From environment variables (looked up through `get`, so this stays
    /// free of I/O): `LUX_API_URL` [+ `LUX_API_KEY`] fills the lux slot;
    /// `GEMINI_API_KEY` [+ `GEMINI_API_URL`, `GEMINI_MODEL`], else
    /// `VISION_API_URL` [+ `VISION_API_KEY`, `VISION_MODEL`] (OpenAI-compatible)
    /// fills the gemini slot; an empty slot gets the `dom` provider, which is
    /// also the referee when a model fills either slot.
    /// `HANDS_LUX_PROVIDER` / `HANDS_GEMINI_PROVIDER` (`lux`, `gemini`,
    /// `openai`, `dom`) force a slot.
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Result<VisionSet, String> {
        let var = |k: &str| get(k).filter(|v| !v.trim().is_empty());
        let lux = || {
            var("LUX_API_URL").map(|url| {
                Provider::Lux(LuxProvider {
                    url,
                    api_key: var("LUX_API_KEY"),
                })
            })
        };
        let gemini = || {
            var("GEMINI_API_KEY")
                .map(|k| {
                    Provider::Gemini(GeminiProvider {
                        base_url: var("GEMINI_API_URL").unwrap_or_else(|| {
                            "https://generativelanguage.googleapis.com/v1beta".into()
                        }),
                        api_key: Some(k),
                        model: var("GEMINI_MODEL").unwrap_or_else(|| "gemini-2.5-flash".into()),
                    })
                })
                .or_else(|| {
                    // A keyless local Gemini-compatible endpoint.
                    var("GEMINI_API_URL").map(|base_url| {
                        Provider::Gemini(GeminiProvider {
                            base_url,
                            api_key: None,
                            model: var("GEMINI_MODEL").unwrap_or_else(|| "gemini-2.5-flash".into()),
                        })
                    })
                })
        };
        let openai = || {
            var("VISION_API_URL").map(|base_url| {
                Provider::OpenAi(OpenAiProvider {
                    base_url,
                    api_key: var("VISION_API_KEY"),
                    model: var("VISION_MODEL").unwrap_or_else(|| "gpt-4o-mini".into()),
                })
            })
        };
        let named = |slot: &str, name: &str| -> Result<Provider, String> {
            let missing = |what: &str| format!("{slot}={name} needs {what}");
            match name {
                "lux" => lux().ok_or_else(|| missing("LUX_API_URL")),
                "gemini" => gemini().ok_or_else(|| missing("GEMINI_API_KEY or GEMINI_API_URL")),
                "openai" => openai().ok_or_else(|| missing("VISION_API_URL")),
                "dom" => Ok(Provider::Dom),
                other => Err(format!(
                    "{slot}: unknown provider {other:?} (lux, gemini, openai, dom)"
                )),
            }
        };
        let lux_slot = match var("HANDS_LUX_PROVIDER") {
            Some(n) => named("HANDS_LUX_PROVIDER", &n)?,
            None => lux().unwrap_or(Provider::Dom),
        };
        let gemini_slot = match var("HANDS_GEMINI_PROVIDER") {
            Some(n) => named("HANDS_GEMINI_PROVIDER", &n)?,
            None => gemini().or_else(openai).unwrap_or(Provider::Dom),
        };
        let referee =
            (lux_slot != Provider::Dom && gemini_slot != Provider::Dom).then_some(Provider::Dom);
        Ok(VisionSet {
            lux: lux_slot,
            gemini: gemini_slot,
            referee,
        })
    }

    pub fn all_dom() -> VisionSet {
        VisionSet {
            lux: Provider::Dom,
            gemini: Provider::Dom,
            referee: None,
        }
    }
}

/// docs/contracts/tools.md §17.3 `getCoordinatesWithFallback` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Coordinates {
    /// One provider answered (`fallbackFrom`: the one that failed first).
    #[serde(rename_all = "camelCase")]
    Single {
        point: Located,
        #[serde(skip_serializing_if = "Option::is_none")]
        fallback_from: Option<ProviderError>,
    },
    /// Both answered within `agreement_px`: `confidence: "high"` (or
    /// "medium" when a referee settled a disagreement).
    #[serde(rename_all = "camelCase")]
    Agreed {
        point: Located,
        confidence: String,
        agreed_by: Vec<String>,
    },
    /// The spec's `{conflict: true, luxResult, geminiResult, needsAgentB: true}`.
    #[serde(rename_all = "camelCase")]
    Conflict {
        conflict: bool,
        lux_result: Located,
        gemini_result: Located,
        needs_agent_b: bool,
    },
    /// Every provider asked failed.
    Failed { errors: Vec<ProviderError> },
}

impl Coordinates {
    /// The point to act on, if the outcome gives one.
    pub fn point(&self) -> Option<&Located> {
        match self {
            Coordinates::Single { point, .. } | Coordinates::Agreed { point, .. } => Some(point),
            _ => None,
        }
    }
}

/// Distance between two answers in lux_sdk pixels (where the spec compares).
pub fn distance(a: &Located, b: &Located, req: &LocateRequest) -> f64 {
    let (ax, ay) = a.in_lux_space(req);
    let (bx, by) = b.in_lux_space(req);
    (ax - bx).hypot(ay - by)
}

/// docs/contracts/tools.md §17.3: `distance < 30` → agree (strict, as the spec).
pub fn agree(a: &Located, b: &Located, req: &LocateRequest, config: &HandsConfig) -> bool {
    distance(a, b, req) < config.agreement_px
}

/// Polls two futures together (the spec's `Promise.all`), with no runtime.
async fn join<A: Future, B: Future>(a: A, b: B) -> (A::Output, B::Output) {
    let mut a = pin!(a);
    let mut b = pin!(b);
    let (mut ra, mut rb) = (None, None);
    poll_fn(move |cx| {
        if ra.is_none() {
            if let Poll::Ready(v) = a.as_mut().poll(cx) {
                ra = Some(v);
            }
        }
        if rb.is_none() {
            if let Poll::Ready(v) = b.as_mut().poll(cx) {
                rb = Some(v);
            }
        }
        match (ra.take(), rb.take()) {
            (Some(x), Some(y)) => Poll::Ready((x, y)),
            (x, y) => {
                ra = x;
                rb = y;
                Poll::Pending
            }
        }
    })
    .await
}

pub async fn get_coordinates_with_fallback<H: Http>(
    tools: &ToolClient<H>,
    set: &VisionSet,
    choice: Choice,
    req: &LocateRequest,
    config: &HandsConfig,
) -> Coordinates {
    if choice == Choice::Both {
        let (l, g) = join(set.lux.locate(tools, req), set.gemini.locate(tools, req)).await;
        return match (l, g) {
            (Ok(l), Ok(g)) if agree(&l, &g, req, config) => Coordinates::Agreed {
                point: l.clone(),
                confidence: "high".into(),
                agreed_by: vec!["lux".into(), "gemini".into()],
            },
            (Ok(l), Ok(g)) => settle(tools, set, req, config, l, g).await,
            // Beyond the spec (whose Promise.all would throw): one answer
            // is still an answer.
            (Ok(p), Err(e)) | (Err(e), Ok(p)) => Coordinates::Single {
                point: p,
                fallback_from: Some(e),
            },
            (Err(a), Err(b)) => Coordinates::Failed { errors: vec![a, b] },
        };
    }
    let (first, second) = match choice {
        Choice::Lux => (&set.lux, &set.gemini),
        _ => (&set.gemini, &set.lux),
    };
    match first.locate(tools, req).await {
        Ok(point) => Coordinates::Single {
            point,
            fallback_from: None,
        },
        Err(e1) => match second.locate(tools, req).await {
            Ok(point) => Coordinates::Single {
                point,
                fallback_from: Some(e1),
            },
            Err(e2) => Coordinates::Failed {
                errors: vec![e1, e2],
            },
        },
    }
}

/// The two disagree: a referee (the `dom` provider) that agrees with one of
/// them settles it with `confidence: "medium"`; otherwise the spec's conflict.
async fn settle<H: Http>(
    tools: &ToolClient<H>,
    set: &VisionSet,
    req: &LocateRequest,
    config: &HandsConfig,
    l: Located,
    g: Located,
) -> Coordinates {
    if let Some(referee) = &set.referee {
        if let Ok(r) = referee.locate(tools, req).await {
            for (slot, p) in [("lux", &l), ("gemini", &g)] {
                if agree(p, &r, req, config) {
                    return Coordinates::Agreed {
                        point: p.clone(),
                        confidence: "medium".into(),
                        agreed_by: vec![slot.into(), referee.name().into()],
                    };
                }
            }
        }
    }
    Coordinates::Conflict {
        conflict: true,
        lux_result: l,
        gemini_result: g,
        needs_agent_b: true,
    }
}

#[cfg(test)]
mod tests;
