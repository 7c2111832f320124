//! Why a wire-form page was refused ([`super::decode`]).

use super::{NUM_STRIDE, STR_FIELDS, WIRE_VERSION};
use crate::float_text;
use std::fmt;

/// What is wrong with the wire form; its text is the error the page sees.
#[derive(Debug, PartialEq)]
pub enum DecodeError {
    Version(f64),
    Meta(usize),
    Nums { nums: usize, nodes: usize },
    Strs { strs: usize, nodes: usize },
    Link { node: usize, target: f64 },
}

/// Written out rather than derived so a float in the message is formatted
/// by [`float_text::display`] (same text as `{}`, far smaller WebAssembly).
impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            DecodeError::Version(v) => write!(
                f,
                "raw page: expected wire version {}, got {}",
                float_text::display(WIRE_VERSION),
                float_text::display(*v)
            ),
            DecodeError::Meta(n) => write!(f, "raw page: meta has {n} numbers, expected 5"),
            DecodeError::Nums { nums, nodes } => write!(
                f,
                "raw page: {nums} numbers do not hold {nodes} nodes of {NUM_STRIDE}"
            ),
            DecodeError::Strs { strs, nodes } => write!(
                f,
                "raw page: {strs} strings do not hold {nodes} nodes of {STR_FIELDS} plus 2"
            ),
            DecodeError::Link { node, target } => write!(
                f,
                "raw page: node {node} points at invalid node {}",
                float_text::display(*target)
            ),
        }
    }
}

impl std::error::Error for DecodeError {}
