//! The browser `sentience browse` acts in: plain headless (or headed)
//! Chromium without the extension (the protocol sends HTML, not snapshots),
//! driven over CDP with chromiumoxide. It reads the page's HTML, and does
//! the three actions of docs/contracts/browse.md by CSS selector the way a person would:
//! a real mouse click at the element's centre, typing as text input, then
//! waiting for the page to settle. See docs/browse.md "What the client does".

use crate::browse_wire::Action;
use anyhow::{bail, Context, Result};
use chromiumoxide::browser::Browser;
use chromiumoxide::cdp::browser_protocol::input::InsertTextParams;
use chromiumoxide::cdp::browser_protocol::page::CreateIsolatedWorldParams;
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use chromiumoxide::layout::Point;
use chromiumoxide::Page;
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

/// How long a page may keep changing before we send its HTML anyway.
const SETTLE_MAX: Duration = Duration::from_secs(10);
/// The HTML must stay the same this long (and the document be loaded) to
/// count as settled: long enough for a form submission to navigate.
const SETTLE_QUIET: Duration = Duration::from_millis(400);
const POLL: Duration = Duration::from_millis(100);

pub struct BrowsePage {
    browser: Browser,
    handler: tokio::task::JoinHandle<()>,
    page: Page,
    _profile: tempfile::TempDir,
}

/// Why an action could not be done: told to the user as is.
#[derive(Debug, thiserror::Error)]
pub enum ActionError {
    #[error("the selector {0} matches no element on the page")]
    NoMatch(String),
    #[error("the selector {0} matches {1} elements on the page; a selector must name exactly one")]
    Ambiguous(String, u64),
    #[error("the selector {0} is not valid CSS: {1}")]
    Invalid(String, String),
    #[error("cannot type into {0}: it is not a text field, list or editable element ({1})")]
    NotEditable(String, String),
    #[error("the list {0} has no option {1:?} (its options: {2})")]
    NoOption(String, String, String),
    #[error("refusing to go to {0}: only http, https and file URLs are followed")]
    BadUrl(String),
}

/// The element behind a selector, checked to be exactly one; a JS function
/// body run with `sel` bound. Returns `{count}` or `{invalid: message}`.
const COUNT_JS: &str = r#"(sel) => {
  try { return { count: document.querySelectorAll(sel).length }; }
  catch (e) { return { invalid: String(e && e.message || e) }; }
}"#;

/// Scrolls the element to the middle of the viewport and tells whether a
/// mouse click at its centre would reach it (the topmost element there is
/// it or inside it); else the caller falls back to `element.click()`.
const AIM_JS: &str = r#"(sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const inView = r.width > 0 && r.height > 0 && x >= 0 && y >= 0 && x < innerWidth && y < innerHeight;
  const top = inView ? document.elementFromPoint(x, y) : null;
  const hits = !!top && (top === el || el.contains(top) || (el.labels && [...el.labels].some((l) => l.contains(top))));
  return { x, y, hits };
}"#;

const JS_CLICK: &str = r#"(sel) => { const el = document.querySelector(sel); if (!el) return false; el.click(); return true; }"#;

/// Focuses the field and selects what it holds, so the typed text replaces
/// it (as a person would select all and type). Returns the kind of target.
const FOCUS_JS: &str = r#"(sel) => {
  const el = document.querySelector(sel);
  if (!el) return { kind: 'none' };
  const textInput = el instanceof HTMLInputElement && !['checkbox','radio','button','submit','reset','file','image','hidden','range','color'].includes(el.type);
  if (textInput || el instanceof HTMLTextAreaElement) {
    if (el.disabled || el.readOnly) return { kind: 'readonly' };
    el.focus();
    try { el.select(); } catch (e) { el.value = ''; }
    return { kind: 'field' };
  }
  if (el instanceof HTMLSelectElement) {
    if (el.disabled) return { kind: 'readonly' };
    el.focus();
    return { kind: 'select' };
  }
  if (el.isContentEditable) {
    el.focus();
    const range = document.createRange();
    range.selectNodeContents(el);
    const s = getSelection(); s.removeAllRanges(); s.addRange(range);
    return { kind: 'editable' };
  }
  return { kind: 'other', tag: el.tagName.toLowerCase() + (el.type ? '[type=' + el.type + ']' : '') };
}"#;

/// Focus only (a key goes to the element), nothing selected or changed.
const PLAIN_FOCUS_JS: &str =
    r#"(sel) => { const el = document.querySelector(sel); if (el) el.focus(); return true; }"#;

/// After the text went in: a field whose value did not take it (a page that
/// swallows key input) gets it set directly, with the `input` event; then
/// `change`, as when the user leaves the field.
const COMMIT_JS: &str = r#"(sel, text) => {
  const el = document.querySelector(sel);
  if (!el) return false;
  if ('value' in el && el.value !== text && !el.isContentEditable) {
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    const set = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
    if (set) set.call(el, text); else el.value = text;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return true;
}"#;

/// `() => {html, ready, url}`: the page's HTML with its form state
/// (see the file's comment).
/// Typing into a `<select>` picks the option whose text (or value) is the
/// text, as typing on a focused list box does: exact, then ignoring case,
/// then the first that starts with it. In a multiple-choice list the option
/// is added to the choice. Returns the option's text, or the options there are.
const CHOOSE_JS: &str = r#"(sel, text) => {
  const el = document.querySelector(sel);
  const norm = (s) => String(s).replace(/\s+/g, ' ').trim();
  const want = norm(text), low = want.toLowerCase();
  const opts = [...el.options];
  const pick = opts.find((o) => norm(o.text) === want || o.value === text)
    || opts.find((o) => norm(o.text).toLowerCase() === low || o.value.toLowerCase() === low)
    || (low ? opts.find((o) => norm(o.text).toLowerCase().startsWith(low)) : undefined);
  if (!pick) return { options: opts.slice(0, 20).map((o) => norm(o.text)) };
  if (el.multiple) pick.selected = true; else el.value = pick.value;
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { chose: norm(pick.text) };
}"#;

const SNAPSHOT_JS: &str = include_str!("browse_html.js");

impl BrowsePage {
    pub async fn launch(chromium: &Path, headed: bool, start_url: &str) -> Result<Self> {
        let (browser, handler, profile) =
            crate::browser::launch_chromium(chromium, headed, (1280, 800), None).await?;
        let page = browser
            .new_page(start_url)
            .await
            .with_context(|| format!("opening {start_url}"))?;
        let me = BrowsePage {
            browser,
            handler,
            page,
            _profile: profile,
        };
        me.settle().await;
        Ok(me)
    }

    /// Runs `f(args…)` (a JS arrow function) on the page's DOM; JSON in and
    /// out. It runs in an isolated world of our own (created anew for each
    /// call: a navigation discards it), so page scripts that override
    /// `querySelectorAll`, `outerHTML` or `click` cannot mislead the client.
    async fn call(&self, f: &str, args: &[Value]) -> Result<Value> {
        let list: Vec<String> = args.iter().map(Value::to_string).collect();
        let expr = format!("({f})({})", list.join(", "));
        let frame = self
            .page
            .mainframe()
            .await
            .ok()
            .flatten()
            .context("the page has no main frame (it is navigating)")?;
        let world = self
            .page
            .execute(
                CreateIsolatedWorldParams::builder()
                    .frame_id(frame)
                    .world_name("sentience-browse")
                    .build()
                    .map_err(anyhow::Error::msg)?,
            )
            .await
            .map_err(|e| anyhow::anyhow!("the page did not take our script: {e}"))?
            .result
            .execution_context_id;
        let params = EvaluateParams::builder()
            .expression(expr)
            .context_id(world)
            .return_by_value(true)
            .await_promise(true)
            .build()
            .map_err(anyhow::Error::msg)?;
        let r = self
            .page
            .execute(params)
            .await
            .map_err(|e| anyhow::anyhow!("the page did not run our script: {e}"))?
            .result;
        if let Some(ex) = r.exception_details {
            let what = ex.exception.and_then(|e| e.description).unwrap_or(ex.text);
            bail!("our script failed in the page: {what}");
        }
        Ok(r.result.value.unwrap_or(Value::Null))
    }

    /// The page's HTML now (`document.documentElement.outerHTML`).
    pub async fn html(&self) -> Result<String> {
        let v = self.call(SNAPSHOT_JS, &[]).await?;
        Ok(v["html"].as_str().unwrap_or_default().to_string())
    }

    pub async fn url(&self) -> String {
        self.page.url().await.ok().flatten().unwrap_or_default()
    }

    /// Waits until the document is loaded and its HTML has not changed for
    /// SETTLE_QUIET (a navigation, a script re-rendering, or nothing at all),
    /// at most SETTLE_MAX. Errors while a navigation swaps the document are
    /// part of settling.
    pub async fn settle(&self) {
        let start = Instant::now();
        let mut last: Option<(String, String)> = None;
        let mut stable_since = Instant::now();
        tokio::time::sleep(POLL).await;
        while start.elapsed() < SETTLE_MAX {
            let now = self.call(SNAPSHOT_JS, &[]).await.ok();
            let key = now.as_ref().and_then(|v| {
                (v["ready"] == "complete").then(|| {
                    (
                        v["url"].as_str().unwrap_or("").to_string(),
                        v["html"].as_str().unwrap_or("").to_string(),
                    )
                })
            });
            match key {
                Some(k) if last.as_ref() == Some(&k) => {
                    if stable_since.elapsed() >= SETTLE_QUIET {
                        return;
                    }
                }
                other => {
                    last = other;
                    stable_since = Instant::now();
                }
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// The selector names exactly one element (docs/contracts/browse.md: the server sends a
    /// selector; we never guess between several).
    async fn one(&self, selector: &str) -> Result<()> {
        let v = self.call(COUNT_JS, &[json!(selector)]).await?;
        if let Some(m) = v["invalid"].as_str() {
            return Err(ActionError::Invalid(selector.into(), m.into()).into());
        }
        match v["count"].as_u64() {
            Some(1) => Ok(()),
            Some(0) | None => Err(ActionError::NoMatch(selector.into()).into()),
            Some(n) => Err(ActionError::Ambiguous(selector.into(), n).into()),
        }
    }

    /// Does one action, then waits for the page to settle. Returns a short
    /// note on how it was done (e.g. the click's fallback).
    pub async fn perform(&self, action: &Action) -> Result<String> {
        let note = match action {
            Action::Goto { url } => self.goto(url).await?,
            Action::Click { selector } => self.click(selector).await?,
            Action::Type { selector, text } => self.type_text(selector, text).await?,
            Action::Press {
                selector,
                key,
                repeat,
            } => self.press(selector.as_deref(), key, *repeat).await?,
            Action::Wait { ms } => {
                tokio::time::sleep(Duration::from_millis(*ms)).await;
                String::new()
            }
            Action::Finish => String::new(),
        };
        self.settle().await;
        Ok(note)
    }

    async fn goto(&self, url: &str) -> Result<String> {
        // A relative URL is read against the page we are on, as a link would be.
        let base = reqwest::Url::parse(&self.url().await).ok();
        let target = match base {
            Some(b) => b.join(url),
            None => reqwest::Url::parse(url),
        }
        .map_err(|_| ActionError::BadUrl(url.into()))?;
        if !matches!(target.scheme(), "http" | "https" | "file") {
            return Err(ActionError::BadUrl(url.into()).into());
        }
        self.page
            .goto(target.as_str())
            .await
            .with_context(|| format!("navigating to {target}"))?;
        Ok(String::new())
    }

    async fn click(&self, selector: &str) -> Result<String> {
        self.one(selector).await?;
        let aim = self.call(AIM_JS, &[json!(selector)]).await?;
        if let (true, Some(x), Some(y)) = (
            aim["hits"] == json!(true),
            aim["x"].as_f64(),
            aim["y"].as_f64(),
        ) {
            self.page
                .click(Point { x, y })
                .await
                .context("clicking with the mouse")?;
            return Ok(format!("mouse at ({x:.0}, {y:.0})"));
        }
        // Hidden, zero-sized or covered: the element's own click().
        self.call(JS_CLICK, &[json!(selector)]).await?;
        Ok("element.click(): covered, hidden or out of view".into())
    }

    /// A key as the keyboard sends it (key down, key up: a date picker's
    /// Page Up, a list's Escape), in the element when named (focused
    /// first, without selecting its text), else where the focus is.
    async fn press(&self, selector: Option<&str>, key: &str, repeat: u32) -> Result<String> {
        if let Some(selector) = selector {
            self.one(selector).await?;
            self.call(PLAIN_FOCUS_JS, &[json!(selector)]).await?;
        }
        // The key goes to the tab (wherever the focus is): any element
        // serves as the handle chromiumoxide sends it through.
        let html = self
            .page
            .find_element("html")
            .await
            .context("the page has no document")?;
        for _ in 0..repeat.max(1) {
            html.press_key(key)
                .await
                .map_err(|e| anyhow::anyhow!("pressing {key}: {e}"))?;
        }
        Ok(String::new())
    }

    async fn type_text(&self, selector: &str, text: &str) -> Result<String> {
        self.one(selector).await?;
        let target = self.call(FOCUS_JS, &[json!(selector)]).await?;
        match target["kind"].as_str() {
            Some("field") | Some("editable") => {}
            Some("select") => {
                let r = self
                    .call(CHOOSE_JS, &[json!(selector), json!(text)])
                    .await?;
                if let Some(chose) = r["chose"].as_str() {
                    return Ok(format!("chose the option {}", json!(chose)));
                }
                return Err(ActionError::NoOption(
                    selector.into(),
                    text.into(),
                    r["options"].to_string(),
                )
                .into());
            }
            Some("readonly") => {
                return Err(ActionError::NotEditable(
                    selector.into(),
                    "disabled or read-only".into(),
                )
                .into())
            }
            _ => {
                let what = target["tag"].as_str().unwrap_or("unknown").to_string();
                return Err(ActionError::NotEditable(selector.into(), what).into());
            }
        }
        if !text.is_empty() {
            self.page
                .execute(InsertTextParams::new(text))
                .await
                .context("typing")?;
        }
        self.call(COMMIT_JS, &[json!(selector), json!(text)])
            .await?;
        Ok(String::new())
    }

    pub async fn close(mut self) {
        let _ = self.browser.close().await;
        let _ = self.browser.wait().await;
        self.handler.abort();
    }
}
