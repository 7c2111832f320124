//! The MCP server (`sentience mcp`, docs/mcp.md): one browser tool set for
//! agent hosts (Claude Code and Desktop, Cursor, VS Code, …), written with
//! the official Rust SDK (rmcp), over stdio or streamable HTTP, on two
//! backends: a managed Chromium with our extension, or the user's own
//! Chrome through the installed extension.
//!
//! - `backend`: the two browsers behind one trait;
//! - `page`, `listing`: snapshots tied to their document, and what the
//!   agent reads (the compact listing and diffs of crates/snapshot-query);
//! - `tools`: the tools, their inputs (`tools::params`, JSON Schemas from
//!   Rust types) and their work; `run_task`: `sentience_run_task`;
//! - `careful`: the run API's security gate, asked through elicitation;
//! - `server`: sessions and what they share; `http`: the guarded HTTP
//!   transport.

pub mod backend;
pub mod careful;
pub mod error;
pub mod http;
pub mod listing;
pub mod page;
pub mod progress;
pub mod run_task;
pub mod server;
pub mod tools;

pub use careful::Mode;
pub use error::{McpError, McpResult};
pub use server::{Config, SentienceMcp, Shared};

/// Serves one MCP session over stdin/stdout until the host closes it.
pub async fn serve_stdio(shared: std::sync::Arc<Shared>) -> Result<(), String> {
    use rmcp::ServiceExt;
    let service = SentienceMcp::new(shared)
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| format!("starting the MCP session: {e}"))?;
    service
        .waiting()
        .await
        .map_err(|e| format!("the MCP session failed: {e}"))?;
    Ok(())
}
