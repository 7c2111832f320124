//! The three System 2 scores of docs/contracts/system2.md §7 ("Discoverability",
//! "Understandability", "Semantic Relevance"), each with the reason it gives.
//! Used by POST /s2 and by the built-in run policy.

use super::image::Screenshot;
use crate::task::{FieldKind, TaskPlan};
use crate::text::{concepts, normalize, words};

/// The user context of `context` (docs/contracts/system2.md §3).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UserContext {
    pub age: Option<i64>,
    /// "beginner" | "intermediate" | "expert"
    pub domain_familiarity: Option<String>,
    pub domain: Option<String>,
    /// "LOW" | "MEDIUM" | "HIGH"
    pub tech_savviness: Option<String>,
}

/// What the scorer needs to know about an element, from either API.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub text: String,
    /// `type` of docs/contracts/system2.md §4 (or the run API's role / tag / input type).
    pub kind: String,
    pub selector: String,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub is_text_entry: bool,
    /// A visual prominence hint when no screenshot is there (is_primary of
    /// docs/contracts/snapshot.md §6.6).
    pub is_primary: bool,
}

impl Candidate {
    pub fn is_menu(&self) -> bool {
        let k = self.kind.to_lowercase();
        k.contains("menu")
            || k.contains("dropdown")
            || k.contains("nav")
            || concepts(&self.text).iter().any(|c| c == "menu")
    }
}

pub struct Score {
    pub value: f64,
    pub reason: String,
}

/// docs/contracts/system2.md §7 "Discoverability": size, position above the fold, and contrast
/// measured from the screenshot pixels under the element's box.
pub fn discoverability(c: &Candidate, shot: Option<&Screenshot>, fold: f64) -> Score {
    let area = (c.width * c.height).max(1.0);
    // 20×20 px scores 0, ≥ 140×140 px-equivalent area scores 1 (log scale);
    // WCAG 2.5.5's 44×44 target lands near 0.4.
    let mut size = ((area / 400.0).ln() / (20_000.0f64 / 400.0).ln()).clamp(0.0, 1.0);
    if c.width.min(c.height) < 16.0 {
        size *= 0.5;
    }
    let size_word = match size {
        s if s >= 0.6 => "large target",
        s if s >= 0.3 => "adequate size",
        _ => "small target",
    };
    let cy = c.y + c.height / 2.0;
    let (position, pos_word) = if cy < 0.0 {
        (0.2, "above the current scroll position")
    } else if cy <= fold {
        (1.0 - 0.3 * cy / fold.max(1.0), "above the fold")
    } else {
        (
            0.3 * (1.0 - (cy - fold) / (2.0 * fold.max(1.0))).max(0.0),
            "below the fold",
        )
    };
    let measured = shot.and_then(|s| s.contrast(c.x, c.y, c.width, c.height));
    let (contrast, contrast_word) = match measured {
        Some(r) => {
            let word = match r {
                r if r >= 7.0 => "high contrast",
                r if r >= 4.5 => "good contrast",
                r if r >= 3.0 => "moderate contrast",
                _ => "low contrast",
            };
            (
                ((r - 1.0) / 3.5).clamp(0.0, 1.0),
                format!("{word} ({r:.1}:1)"),
            )
        }
        None if c.is_primary => (0.9, "visually primary (contrast not measured)".into()),
        None => (0.6, "contrast not measured".into()),
    };
    let value = 0.35 * size + 0.35 * position + 0.30 * contrast;
    Score {
        value,
        reason: format!(
            "{size_word} ({:.0}x{:.0} px), {pos_word}, {contrast_word}",
            c.width, c.height
        ),
    }
}

/// Labels any user recognises (common UI vocabulary, as concepts).
const GENERIC: &[&str] = &[
    "login",
    "submit",
    "search",
    "continue",
    "home",
    "cart",
    "buy",
    "contact",
    "menu",
    "close",
    "register",
    "settings",
    "logout",
    "help",
    "back",
    "ok",
    "yes",
    "no",
    "save",
    "delete",
    "edit",
    "more",
    "download",
    "about",
    "price",
    "account",
    "email",
    "password",
    "username",
    "name",
    "phone",
    "message",
    "addtocart",
    "checkout",
    "now",
    "new",
    "view",
    "open",
    "sign",
];

/// Domain words a beginner may not know.
const JARGON: &[&str] = &[
    "apr",
    "apy",
    "ach",
    "escrow",
    "amortization",
    "amortisation",
    "ira",
    "roth",
    "401k",
    "etf",
    "dividend",
    "ledger",
    "reconcile",
    "remittance",
    "swift",
    "iban",
    "routing",
    "deductible",
    "copay",
    "coinsurance",
    "formulary",
    "eob",
    "prior",
    "authorization",
    "hipaa",
    "api",
    "oauth",
    "sso",
    "saml",
    "webhook",
    "dns",
    "ssh",
    "cli",
    "sdk",
    "kyc",
    "aml",
    "fiduciary",
    "lien",
    "premium",
    "underwriting",
    "beneficiary",
    "collateral",
];

/// Acronyms plain enough not to count as jargon.
const PLAIN_ACRONYMS: &[&str] = &["FAQ", "OK", "PDF", "USA", "USD", "EUR", "GBP", "TV", "ID"];

/// docs/contracts/system2.md §7 "Understandability": explicit text vs icon-only, generic vs
/// jargon labels, adjusted for age, domain familiarity and tech savviness.
pub fn understandability(c: &Candidate, ctx: &UserContext) -> Score {
    let label = c.text.trim();
    let tech = ctx
        .tech_savviness
        .as_deref()
        .unwrap_or("MEDIUM")
        .to_uppercase();
    let familiarity = ctx
        .domain_familiarity
        .as_deref()
        .unwrap_or("intermediate")
        .to_lowercase();
    let older = ctx.age.is_some_and(|a| a >= 65);
    let mut notes = Vec::new();
    let icon_only = label.chars().filter(|ch| ch.is_alphanumeric()).count() < 2;
    let mut value = if icon_only {
        notes.push("icon-only or no visible text".to_string());
        let mut v: f64 = 0.35;
        if older {
            v -= 0.1;
            notes.push("harder for older users".into());
        }
        match tech.as_str() {
            "LOW" => v -= 0.1,
            "HIGH" => v += 0.15,
            _ => {}
        }
        v
    } else {
        notes.push("explicit text label".into());
        0.8
    };
    if !icon_only {
        let cs = concepts(label);
        if !cs.is_empty() && cs.iter().all(|w| GENERIC.contains(&w.as_str())) {
            value += 0.15;
            notes.push("generic UI element".into());
        }
        let jargon: Vec<String> = label
            .split(|ch: char| !ch.is_alphanumeric())
            .filter(|w| {
                JARGON.contains(&w.to_lowercase().as_str())
                    || (w.len() >= 3
                        && w.chars().all(|ch| ch.is_ascii_uppercase())
                        && !PLAIN_ACRONYMS.contains(w))
            })
            .map(str::to_string)
            .collect();
        if !jargon.is_empty() {
            let penalty = match familiarity.as_str() {
                "beginner" => 0.25,
                "expert" => 0.03,
                _ => 0.12,
            } + if tech == "LOW" { 0.05 } else { 0.0 };
            value -= penalty;
            notes.push(format!(
                "jargon ({}) for a {familiarity} user",
                jargon.join(", ")
            ));
        }
        let n = words(label).len();
        if n > 8 {
            value -= if older { 0.15 } else { 0.1 };
            notes.push("long label".into());
        }
    }
    Score {
        value: value.clamp(0.0, 1.0),
        reason: notes.join(", "),
    }
}

/// Which kind of field an element is, from its type and label (for "type").
pub fn field_kind(c: &Candidate) -> Option<FieldKind> {
    if !c.is_text_entry {
        return None;
    }
    let k = c.kind.to_lowercase();
    let w = words(&format!(
        "{} {}",
        c.text,
        c.selector.replace(['-', '_'], " ")
    ));
    let has = |xs: &[&str]| w.iter().any(|x| xs.contains(&x.as_str()));
    Some(
        if k == "password" || has(&["password", "passcode", "pwd"]) {
            FieldKind::Password
        } else if k == "email" || has(&["email", "mail"]) {
            FieldKind::Email
        } else if k == "search" || k == "searchbox" || has(&["search", "query", "q"]) {
            FieldKind::Search
        } else if has(&["username", "user", "login", "userid", "account"]) {
            FieldKind::Username
        } else if k == "tel" || has(&["phone", "telephone", "tel", "mobile"]) {
            FieldKind::Phone
        } else if k == "textarea" || has(&["message", "comment", "comments", "inquiry"]) {
            FieldKind::Message
        } else if has(&["name"]) {
            FieldKind::Name
        } else {
            FieldKind::Other
        },
    )
}

/// docs/contracts/system2.md §7 "Semantic relevance" to the task: normalised concept matching
/// with synonyms, the task's quoted strings, and fields the task has a value
/// for. Purely local, no network.
/// `task_concepts` is `concepts(task)`, computed once per decision.
pub fn relevance(
    c: &Candidate,
    task_concepts: &[String],
    plan: &TaskPlan,
    scratchpad: &[String],
) -> Score {
    let label = if c.text.trim().is_empty() {
        c.selector.replace(['-', '_'], " ")
    } else {
        c.text.clone()
    };
    let norm_label = normalize(&label);
    if let Some(kind) = field_kind(c) {
        if let Some(v) = plan.values.iter().find(|v| v.kind == kind) {
            return Score {
                value: 0.9,
                reason: format!(
                    "text field for the task's {} \"{}\"",
                    kind_word(kind),
                    v.value
                ),
            };
        }
    }
    let mut value: f64 = 0.0;
    let mut reason = String::from("no overlap with the task");
    for t in &plan.targets {
        let nt = normalize(t);
        if !nt.is_empty()
            && !norm_label.is_empty()
            && (norm_label.contains(&nt) || nt == norm_label)
        {
            value = 0.95;
            reason = format!("matches the task's quoted \"{t}\"");
        }
    }
    if value == 0.0 {
        let task_c = task_concepts;
        let elem_c = concepts(&label);
        let shared: Vec<&String> = elem_c.iter().filter(|c| task_c.contains(c)).collect();
        if !shared.is_empty() && !task_c.is_empty() {
            let elem_cov = shared.len() as f64 / elem_c.len() as f64;
            let task_cov = shared.len() as f64 / task_c.len() as f64;
            value = (0.75 * elem_cov + 0.25 * task_cov).min(0.9);
            reason = format!(
                "directly related to the task (shares {})",
                shared
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    if value > 0.0 && norm_label.len() >= 3 {
        let repeated = scratchpad
            .iter()
            .any(|s| normalize(s).contains(&norm_label));
        if repeated {
            value *= 0.6;
            reason.push_str("; already acted on according to the scratchpad");
        }
    }
    Score { value, reason }
}

pub fn kind_word(k: FieldKind) -> &'static str {
    match k {
        FieldKind::Username => "username",
        FieldKind::Password => "password",
        FieldKind::Email => "email",
        FieldKind::Name => "name",
        FieldKind::Search => "search query",
        FieldKind::Phone => "phone",
        FieldKind::Message => "message",
        FieldKind::Other => "value",
    }
}

/// docs/contracts/system2.md §7: the three scores combined; relevance dominates, since a
/// prominent element that does not serve the task is the wrong one.
pub fn combine(d: f64, u: f64, r: f64) -> f64 {
    0.2 * d + 0.2 * u + 0.6 * r
}
