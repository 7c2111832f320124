//! The one error type of the MCP server. A tool that fails answers with an
//! MCP tool result marked `isError` and this message (the model reads it and
//! can recover: take a new snapshot, ask the user, pick another tab); only
//! malformed requests are protocol errors, and rmcp answers those itself.

use sentience_tool_server::error::ToolError;

#[derive(Debug, thiserror::Error)]
pub enum McpError {
    /// Input the schema let through but that makes no sense (an empty URL,
    /// a query that does not parse, both `id` and `ref`).
    #[error("{0}")]
    BadInput(String),
    /// An element id the agent may no longer use: the page navigated, the
    /// element went away, or it never was in a snapshot of this page.
    #[error("{0}")]
    StaleId(String),
    /// A tab, an element or a page that is not there.
    #[error("{0}")]
    NotFound(String),
    /// Careful mode held the action (refused by the user, or no way to ask).
    #[error("{0}")]
    Refused(String),
    /// The browser, the extension or the page failed the call.
    #[error("{0}")]
    Browser(String),
    /// Something this configuration cannot do (no extension paired, …).
    #[error("{0}")]
    Unavailable(String),
    /// The host cancelled the request.
    #[error("cancelled")]
    Cancelled,
}

pub type McpResult<T> = Result<T, McpError>;

impl From<ToolError> for McpError {
    fn from(e: ToolError) -> Self {
        match e {
            ToolError::NotFound(m) | ToolError::SessionNotFound(m) => McpError::NotFound(m),
            ToolError::BadRequest { message, .. } | ToolError::OutOfBounds { message, .. } => {
                McpError::BadInput(message)
            }
            ToolError::Unavailable(m) | ToolError::Conflict(m) => McpError::Unavailable(m),
            other => McpError::Browser(other.to_string()),
        }
    }
}
