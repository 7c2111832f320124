//! The WebAssembly face of crates/hands (docs/hands.md): the same rules,
//! with JavaScript supplying the I/O. `clients/hands/index.mjs` wraps this
//! in a friendlier API; nothing here has logic of its own. Values cross the
//! boundary as JSON text, and every error comes back as a rejected promise
//! or a `{success: false, error}` object, never a panic.

use js_sys::{Function, Promise, JSON};
use sentience_hands::heal::{click_with_healing, ClickTarget};
use sentience_hands::io::{Clock, Http, Request, Response, TransportError};
use sentience_hands::vision::{TaskHints, VisionContext};
use sentience_hands::{
    categorize_action, choose_vision_provider, detect_browser_behavior, Action, ActionRecord,
    HandsConfig, VisionSet,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(v).map_err(|e| JsValue::from_str(&e.to_string()))?;
    JSON::parse(&text)
}

fn from_js<T: DeserializeOwned>(v: &JsValue, what: &str) -> Result<T, JsValue> {
    let text = if v.is_undefined() || v.is_null() {
        "{}".to_string()
    } else {
        JSON::stringify(v)?.as_string().unwrap_or_default()
    };
    serde_json::from_str(&text).map_err(|e| JsValue::from_str(&format!("{what}: {e}")))
}

/// `send(method, url, headersJson, bodyJson|null) → Promise<{status, body}>`.
struct JsHttp(Function);

impl Http for JsHttp {
    async fn send(&self, req: Request) -> Result<Response, TransportError> {
        let headers: serde_json::Map<String, Value> = req
            .headers
            .into_iter()
            .map(|(k, v)| (k, Value::String(v)))
            .collect();
        let headers = Value::Object(headers).to_string();
        let body = req
            .body
            .map_or(JsValue::NULL, |b| JsValue::from_str(&b.to_string()));
        let args = js_sys::Array::of4(
            &JsValue::from_str(req.method.as_str()),
            &JsValue::from_str(&req.url),
            &JsValue::from_str(&headers),
            &body,
        );
        let call = self
            .0
            .apply(&JsValue::NULL, &args)
            .map_err(|e| TransportError(describe(&e)))?;
        let out = JsFuture::from(Promise::resolve(&call))
            .await
            .map_err(|e| TransportError(describe(&e)))?;
        let status = js_sys::Reflect::get(&out, &JsValue::from_str("status"))
            .ok()
            .and_then(|s| s.as_f64())
            .unwrap_or(0.0) as u16;
        let body = js_sys::Reflect::get(&out, &JsValue::from_str("body")).unwrap_or(JsValue::NULL);
        let body: Value = from_js(&body, "response body").unwrap_or(Value::Null);
        Ok(Response { status, body })
    }
}

/// `sleep(ms) → Promise`, `now() → number`.
struct JsClock {
    sleep: Function,
    now: Function,
}

impl Clock for JsClock {
    fn now_ms(&self) -> f64 {
        self.now
            .call0(&JsValue::NULL)
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0)
    }
    async fn sleep(&self, ms: u64) {
        if let Ok(p) = self
            .sleep
            .call1(&JsValue::NULL, &JsValue::from_f64(ms as f64))
        {
            let _ = JsFuture::from(Promise::resolve(&p)).await;
        }
    }
}

fn describe(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            js_sys::Reflect::get(e, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| "JavaScript error".to_string())
}

#[derive(serde::Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Options {
    tools_url: String,
    token: Option<String>,
    scope: Option<String>,
    start_url: Option<String>,
    session_id: Option<String>,
    config: HandsConfig,
    /// Environment-style provider settings (`LUX_API_URL`, …; docs/hands.md).
    env: std::collections::HashMap<String, String>,
}

type Inner = sentience_hands::Hands<JsHttp, JsClock>;

/// One agent's hands on one tool server.
#[wasm_bindgen]
pub struct Hands {
    inner: Rc<Inner>,
}

fn spawn<F>(f: F) -> Promise
where
    F: std::future::Future<Output = Result<Value, JsValue>> + 'static,
{
    future_to_promise(async move { to_js(&f.await?) })
}

#[wasm_bindgen]
impl Hands {
    #[wasm_bindgen(constructor)]
    pub fn new(
        options: JsValue,
        send: Function,
        sleep: Function,
        now: Function,
    ) -> Result<Hands, JsValue> {
        let o: Options = from_js(&options, "options")?;
        if o.tools_url.is_empty() {
            return Err(JsValue::from_str("options.toolsUrl is required"));
        }
        let vision =
            VisionSet::from_env(|k| o.env.get(k).cloned()).map_err(|e| JsValue::from_str(&e))?;
        let tools =
            sentience_hands::ToolClient::new(JsHttp(send), &o.tools_url).with_token(o.token);
        let mut h = sentience_hands::Hands::from_parts(tools, JsClock { sleep, now });
        h.tools.set_session_id(o.session_id);
        h.config = o.config;
        h.vision = vision;
        h.scope = o.scope.unwrap_or_else(|| "browser".into());
        h.start_url = o.start_url;
        Ok(Hands { inner: Rc::new(h) })
    }

    /// docs/contracts/tools.md §17.6 `executeWithRetry(action)`.
    #[wasm_bindgen(js_name = executeWithRetry)]
    pub fn execute_with_retry(&self, action: JsValue) -> Promise {
        let h = self.inner.clone();
        spawn(async move {
            let a: Action = from_js(&action, "action")?;
            Ok(h.execute_with_retry(&a).await)
        })
    }

    /// docs/contracts/tools.md §17.5 `executeAction(action)` (one attempt).
    #[wasm_bindgen(js_name = executeAction)]
    pub fn execute_action(&self, action: JsValue) -> Promise {
        let h = self.inner.clone();
        spawn(async move {
            let a: Action = from_js(&action, "action")?;
            Ok(h.execute_action(&a).await)
        })
    }

    /// docs/contracts/tools.md §17.2 `executeWithSelfHealing({x, y, coordinate_origin})`.
    #[wasm_bindgen(js_name = clickWithHealing)]
    pub fn click_with_healing(&self, target: JsValue) -> Promise {
        let h = self.inner.clone();
        spawn(async move {
            let mut t: Value = from_js(&target, "target")?;
            if t.get("scope").is_none() {
                t["scope"] = Value::String(h.scope.clone());
            }
            let t: ClickTarget = serde_json::from_value(t)
                .map_err(|e| JsValue::from_str(&format!("target: {e}")))?;
            Ok(click_with_healing(&h.tools, &h.clock, &h.config, &t).await)
        })
    }

    /// docs/contracts/tools.md §17.3 `getCoordinatesWithFallback`: screenshot, choose, locate.
    pub fn locate(&self, instruction: String, hints: JsValue, app: Option<String>) -> Promise {
        let h = self.inner.clone();
        spawn(async move {
            let hints: TaskHints = from_js(&hints, "hints")?;
            Ok(match h.locate(&instruction, &hints, app).await {
                Ok((_, coords)) => serde_json::to_value(coords).unwrap_or(Value::Null),
                // A conflict or every provider failing is still the §17.3
                // result; only a failed screenshot is not.
                Err(v) => v.get("vision").cloned().unwrap_or(v),
            })
        })
    }

    /// `POST /browser/start`; later calls use the new session.
    #[wasm_bindgen(js_name = startBrowser)]
    pub fn start_browser(&self, start_url: Option<String>) -> Promise {
        let h = self.inner.clone();
        spawn(async move { Ok(h.tools.start_browser(start_url.as_deref()).await) })
    }

    #[wasm_bindgen(getter, js_name = sessionId)]
    pub fn session_id(&self) -> Option<String> {
        self.inner.tools.session_id()
    }
}

/// docs/contracts/tools.md §17.1, over the same config.
#[wasm_bindgen]
pub struct LoopDetector {
    inner: sentience_hands::LoopDetector,
}

#[wasm_bindgen]
impl LoopDetector {
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue) -> Result<LoopDetector, JsValue> {
        Ok(LoopDetector {
            inner: sentience_hands::LoopDetector::new(from_js(&config, "config")?),
        })
    }
    #[wasm_bindgen(js_name = addAction)]
    pub fn add_action(&mut self, action: JsValue) -> Result<(), JsValue> {
        let mut v: Value = from_js(&action, "action")?;
        // The spec's records say `action` for the type.
        if let (Some(a), None) = (v.get("action").cloned(), v.get("type")) {
            v["type"] = a;
        }
        let rec: ActionRecord =
            serde_json::from_value(v).map_err(|e| JsValue::from_str(&format!("action: {e}")))?;
        self.inner.add_action(rec);
        Ok(())
    }
    #[wasm_bindgen(js_name = setLastPageAfter)]
    pub fn set_last_page_after(&mut self, fingerprint: String) {
        self.inner.set_last_page_after(fingerprint);
    }
    #[wasm_bindgen(js_name = detectLoop)]
    pub fn detect_loop(&self) -> bool {
        self.inner.detect_loop()
    }
    /// `null`, or `{kind, workarounds}`.
    pub fn detect(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.detect())
    }
    #[wasm_bindgen(js_name = getSuggestedWorkaround)]
    pub fn suggested(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.suggested_workarounds())
    }
    pub fn clear(&mut self) {
        self.inner.clear();
    }
}

#[wasm_bindgen(js_name = detectBrowserBehavior)]
pub fn js_detect_browser_behavior(task: &str) -> Result<JsValue, JsValue> {
    to_js(&detect_browser_behavior(task))
}

#[wasm_bindgen(js_name = categorizeAction)]
pub fn js_categorize_action(action_type: &str) -> Result<JsValue, JsValue> {
    to_js(&categorize_action(action_type))
}

#[wasm_bindgen(js_name = chooseVisionProvider)]
pub fn js_choose_vision_provider(task: JsValue, context: JsValue) -> Result<String, JsValue> {
    let t: TaskHints = from_js(&task, "task")?;
    let c: VisionContext = from_js(&context, "context")?;
    Ok(match choose_vision_provider(&t, &c) {
        sentience_hands::Choice::Lux => "lux",
        sentience_hands::Choice::Gemini => "gemini",
        sentience_hands::Choice::Both => "both",
    }
    .to_string())
}

/// The spec's values of every threshold (`HandsConfig`).
#[wasm_bindgen(js_name = defaultConfig)]
pub fn js_default_config() -> Result<JsValue, JsValue> {
    to_js(&HandsConfig::default())
}
