//! The wire form ([`super`]'s module doc) to a [`RawPage`] and back.

use super::*;
use crate::frames::{layout, Iframe};

fn index(v: f64, node: usize, len: usize) -> Result<Option<u32>, DecodeError> {
    if v < 0.0 {
        return Ok(None);
    }
    if !v.is_finite() || v.fract() != 0.0 || v >= len as f64 {
        return Err(DecodeError::Link { node, target: v });
    }
    Ok(Some(v as u32))
}

fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        0.0
    }
}

/// A count or index read from the wire: a non-negative integer, else `None`.
fn whole(v: f64) -> Option<usize> {
    (v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v <= u32::MAX as f64).then_some(v as usize)
}

/// `strs.split(SEP)`, as a plain byte scan: `str::split` with a char pattern
/// took a sixth of the engine's time on a 10k-element page. `SEP` is ASCII,
/// so every cut falls on a char boundary.
fn split_fields(strs: &str, expected: usize) -> Vec<&str> {
    const SEP_BYTE: u8 = SEP as u8;
    let mut fields = Vec::with_capacity(expected);
    let mut start = 0;
    for (i, b) in strs.bytes().enumerate() {
        if b == SEP_BYTE {
            fields.push(strs.get(start..i).unwrap_or_default());
            start = i + 1;
        }
    }
    fields.push(strs.get(start..).unwrap_or_default());
    fields
}

fn rect(x: f64, y: f64, w: f64, h: f64) -> BBox {
    BBox {
        x: finite(x),
        y: finite(y),
        width: finite(w).max(0.0),
        height: finite(h).max(0.0),
    }
}

/// A clip rect from the wire; a negative width means none.
fn clip(x: f64, y: f64, w: f64, h: f64) -> Option<BBox> {
    (w >= 0.0).then(|| BBox {
        x: finite(x),
        y: finite(y),
        width: finite(w),
        height: finite(h),
    })
}

/// The `N` values of `list` from `at`, if there are that many.
fn row<T, const N: usize>(list: &[T], at: usize) -> Option<&[T; N]> {
    list.get(at..at.checked_add(N)?)?.try_into().ok()
}

/// A frame-table row's iframe (its nodes are decoded apart).
fn iframe(row: &[f64], frame: usize) -> Result<Iframe, DecodeError> {
    let bad = || DecodeError::Frame { frame };
    let host = match row[FR_HOST] {
        -1.0 => None,
        v => Some(whole(v).ok_or_else(bad)?),
    };
    let parent = match row[FR_PARENT] {
        -1.0 => None,
        v => Some(whole(v).ok_or_else(bad)? as u32),
    };
    Ok(Iframe {
        host,
        at: whole(row[FR_AT]).ok_or_else(bad)?,
        parent,
        z_index: finite(row[FR_Z]).clamp(i32::MIN as f64, i32::MAX as f64) as i32,
        content_box: rect(row[FR_X], row[FR_Y], row[FR_W], row[FR_H]),
        clip: clip(
            row[FR_CLIP_X],
            row[FR_CLIP_Y],
            row[FR_CLIP_W],
            row[FR_CLIP_H],
        ),
        elements_scanned: finite(row[FR_SCANNED]).clamp(0.0, u32::MAX as f64) as u32,
    })
}

/// Decodes the columnar wire form sent by the walker (with the walks of
/// child frames when `meta` has frame rows, merged by [`crate::frames`]).
/// Never panics: the page can influence these values, so every index is
/// checked.
pub fn decode(meta: &[f64], nums: &[f64], strs: &str) -> Result<RawPage, DecodeError> {
    let rows = meta.get(META_LEN..).unwrap_or_default();
    if meta.len() < META_LEN || !rows.chunks_exact(FRAME_STRIDE).remainder().is_empty() {
        return Err(DecodeError::Meta(meta.len()));
    }
    if meta[M_VERSION] != WIRE_VERSION {
        return Err(DecodeError::Version(meta[M_VERSION]));
    }
    // Node count of each walk: the top one, then each frame's.
    let mut counts = vec![finite(meta[M_NODES]).max(0.0) as usize];
    for frame in 0..rows.len() / FRAME_STRIDE {
        let n = whole(rows[frame * FRAME_STRIDE + FR_NODES]);
        counts.push(n.ok_or(DecodeError::Frame { frame })?);
    }
    let count = counts.iter().fold(0usize, |n, c| n.saturating_add(*c));
    if nums.len() != count.saturating_mul(NUM_STRIDE) {
        return Err(DecodeError::Nums {
            nums: nums.len(),
            nodes: count,
        });
    }
    let expected = count
        .saturating_mul(STR_FIELDS)
        .saturating_add(counts.len() * PAGE_STRS);
    let fields = split_fields(strs, expected);
    if fields.len() != expected {
        return Err(DecodeError::Strs {
            strs: fields.len(),
            nodes: count,
            walks: counts.len(),
        });
    }
    let mut iframes = Vec::with_capacity(counts.len() - 1);
    for (frame, row) in rows.chunks_exact(FRAME_STRIDE).enumerate() {
        iframes.push(iframe(row, frame)?);
    }
    // The nodes in merged order (crate::frames), each decoded from its
    // walk's rows, links checked within its walk, then placed.
    let layout = layout(&iframes, &counts)?;
    let mut nodes = Vec::with_capacity(count);
    for &(w, from, to) in &layout.runs {
        let (base, len) = (layout.starts[w], counts[w]);
        let strs_at = (w + 1) * PAGE_STRS + base * STR_FIELDS;
        for i in from..to {
            let at = base + i;
            // Fixed-size views: no bounds check per column.
            let (Some(n), Some(s)) = (
                row::<f64, NUM_STRIDE>(nums, at * NUM_STRIDE),
                row::<&str, STR_FIELDS>(&fields, strs_at + i * STR_FIELDS),
            ) else {
                break;
            };
            let parent = index(n[N_PARENT], at, len)?;
            if parent.is_some_and(|p| p as usize >= i) {
                return Err(DecodeError::Link {
                    node: at,
                    target: n[N_PARENT],
                });
            }
            let mut node = RawNode {
                stable_id: finite(n[N_STABLE_ID]).clamp(0.0, u32::MAX as f64) as u32,
                parent,
                tag: s[S_TAG].to_string(),
                rect: rect(n[N_X], n[N_Y], n[N_W], n[N_H]),
                clip: clip(n[N_CLIP_X], n[N_CLIP_Y], n[N_CLIP_W], n[N_CLIP_H]),
                flags: Flags(finite(n[N_FLAGS]).clamp(0.0, u32::MAX as f64) as u32),
                z_index: finite(n[N_Z]).clamp(i32::MIN as f64, i32::MAX as f64) as i32,
                background: Rgba::unpack(n[N_BG]),
                effective_background: Rgba::unpack(n[N_BG_EFFECTIVE]),
                form: index(n[N_FORM], at, len)?,
                label_for: index(n[N_LABEL_FOR], at, len)?,
                role_attr: s[S_ROLE].to_string(),
                input_type: s[S_TYPE].to_string(),
                aria_label: s[S_ARIA_LABEL].to_string(),
                labelledby_text: s[S_LABELLEDBY].to_string(),
                labels_text: s[S_LABELS].to_string(),
                value: s[S_VALUE].to_string(),
                placeholder: s[S_PLACEHOLDER].to_string(),
                alt: s[S_ALT].to_string(),
                title: s[S_TITLE].to_string(),
                text: s[S_TEXT].to_string(),
                name: s[S_NAME].to_string(),
                options: s[S_OPTIONS].to_string(),
            };
            layout.fix(w, &mut node);
            nodes.push(node);
        }
    }
    let scanned = iframes.iter().fold(
        finite(meta[M_SCANNED]).clamp(0.0, u32::MAX as f64) as u32,
        |n, f| n.saturating_add(f.elements_scanned),
    );
    Ok(RawPage {
        url: fields[P_URL].to_string(),
        timestamp: fields[P_TIMESTAMP].to_string(),
        viewport: Viewport {
            width: finite(meta[M_VIEWPORT_W]).max(0.0),
            height: finite(meta[M_VIEWPORT_H]).max(0.0),
        },
        elements_scanned: scanned,
        nodes,
    })
}

/// Encodes a page into the wire form (the inverse of [`decode`]; used by
/// tests and by the servers to replay recorded pages).
pub fn encode(page: &RawPage) -> (Vec<f64>, Vec<f64>, String) {
    let mut meta = vec![0.0; META_LEN];
    meta[M_VERSION] = WIRE_VERSION;
    meta[M_VIEWPORT_W] = page.viewport.width;
    meta[M_VIEWPORT_H] = page.viewport.height;
    meta[M_SCANNED] = page.elements_scanned as f64;
    meta[M_NODES] = page.nodes.len() as f64;
    let mut nums = Vec::with_capacity(page.nodes.len() * NUM_STRIDE);
    let mut strs = vec![page.url.as_str(), &page.timestamp];
    push_nodes(&page.nodes, &mut nums, &mut strs);
    let sep = SEP.to_string();
    (meta, nums, strs.join(&sep))
}

/// Appends nodes in the wire form (node indices as they are).
pub(crate) fn push_nodes<'a>(nodes: &'a [RawNode], nums: &mut Vec<f64>, strs: &mut Vec<&'a str>) {
    let opt = |v: Option<u32>| v.map_or(-1.0, |v| v as f64);
    for n in nodes {
        let clip = n.clip.unwrap_or(BBox {
            x: 0.0,
            y: 0.0,
            width: -1.0,
            height: -1.0,
        });
        let mut row = [0.0; NUM_STRIDE];
        row[N_STABLE_ID] = n.stable_id as f64;
        row[N_PARENT] = opt(n.parent);
        row[N_X] = n.rect.x;
        row[N_Y] = n.rect.y;
        row[N_W] = n.rect.width;
        row[N_H] = n.rect.height;
        row[N_FLAGS] = n.flags.0 as f64;
        row[N_Z] = n.z_index as f64;
        row[N_BG] = n.background.map_or(-1.0, Rgba::pack);
        row[N_BG_EFFECTIVE] = n.effective_background.map_or(-1.0, Rgba::pack);
        row[N_CLIP_X] = clip.x;
        row[N_CLIP_Y] = clip.y;
        row[N_CLIP_W] = clip.width;
        row[N_CLIP_H] = clip.height;
        row[N_FORM] = opt(n.form);
        row[N_LABEL_FOR] = opt(n.label_for);
        nums.extend_from_slice(&row);
        let mut s = [""; STR_FIELDS];
        s[S_TAG] = &n.tag;
        s[S_ROLE] = &n.role_attr;
        s[S_TYPE] = &n.input_type;
        s[S_ARIA_LABEL] = &n.aria_label;
        s[S_LABELLEDBY] = &n.labelledby_text;
        s[S_LABELS] = &n.labels_text;
        s[S_VALUE] = &n.value;
        s[S_PLACEHOLDER] = &n.placeholder;
        s[S_ALT] = &n.alt;
        s[S_TITLE] = &n.title;
        s[S_TEXT] = &n.text;
        s[S_NAME] = &n.name;
        s[S_OPTIONS] = &n.options;
        strs.extend(s);
    }
}
