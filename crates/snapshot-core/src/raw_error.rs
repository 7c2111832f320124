//! Why a wire-form page was refused ([`super::decode`]).

use super::{FRAME_STRIDE, META_LEN, NUM_STRIDE, PAGE_STRS, STR_FIELDS, WIRE_VERSION};
use std::fmt;

/// What is wrong with the wire form; its text is the error the page sees.
#[derive(Debug, PartialEq)]
pub enum DecodeError {
    Version(f64),
    Meta(usize),
    Nums {
        nums: usize,
        nodes: usize,
    },
    Strs {
        strs: usize,
        nodes: usize,
        walks: usize,
    },
    Link {
        node: usize,
        target: f64,
    },
    /// A frame-table row that does not describe a frame of the tree
    /// (bad counts, host, position or parent: see [`crate::frames`]).
    Frame {
        frame: usize,
    },
}

/// A wire number in a message: integers as integers, anything else as JSON
/// writes it (`1.5`, `1e300`; NaN and infinities as `null`). Not `{}`:
/// core's float formatting is kilobytes of WebAssembly that only these
/// messages would use, where the JSON writer is in the engine anyway.
fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 9e15 {
        (v as i64).to_string()
    } else {
        serde_json::to_string(&v).unwrap_or_default()
    }
}

/// Written out rather than derived so a float in the message is formatted
/// by [`number`].
impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            DecodeError::Version(v) => write!(
                f,
                "raw page: expected wire version {}, got {}",
                number(WIRE_VERSION),
                number(*v)
            ),
            DecodeError::Meta(n) => write!(
                f,
                "raw page: meta has {n} numbers, expected {META_LEN} plus {FRAME_STRIDE} per frame"
            ),
            DecodeError::Nums { nums, nodes } => write!(
                f,
                "raw page: {nums} numbers do not hold {nodes} nodes of {NUM_STRIDE}"
            ),
            DecodeError::Strs { strs, nodes, walks } => write!(
                f,
                "raw page: {strs} strings do not hold {nodes} nodes of {STR_FIELDS} plus {PAGE_STRS} for each of {walks} walks"
            ),
            DecodeError::Link { node, target } => write!(
                f,
                "raw page: node {node} points at invalid node {}",
                number(*target)
            ),
            DecodeError::Frame { frame } => write!(
                f,
                "raw page: frame {frame} is not placed in a walk before it"
            ),
        }
    }
}

impl std::error::Error for DecodeError {}
