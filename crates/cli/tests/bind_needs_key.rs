//! docs/security.md: a local service bound beyond loopback is reachable by
//! the network, where Host and Origin say nothing about who calls; the real
//! binary refuses to start without a key, says which flag to set, and
//! starts with one.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn sentience(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sentience"));
    c.args(args)
        .env_remove("SENTIENCE_API_KEY")
        .env_remove("SENTIENCE_TOOLS_TOKEN")
        .env_remove("SENTIENCE_MCP_TOKEN")
        .env_remove("LLM_API_KEY")
        .env_remove("PORT")
        .env_remove("TOOLS_PORT")
        .env("DISPLAY", ":none");
    c
}

#[test]
fn serve_tools_and_mcp_http_refuse_a_public_bind_without_a_key() {
    for (args, flag) in [
        (
            &["serve", "--host", "0.0.0.0", "--port", "0", "--in-memory"][..],
            "--api-key",
        ),
        (
            &["tools", "--host", "0.0.0.0", "--port", "0"][..],
            "--token",
        ),
        (
            &["mcp", "--http", "--host", "0.0.0.0", "--port", "0"][..],
            "--token",
        ),
    ] {
        let out = sentience(args).output().expect("run sentience");
        assert!(!out.status.success(), "{args:?} started");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("refusing to listen on 0.0.0.0"),
            "{args:?}: {err}"
        );
        assert!(err.contains(flag), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?} printed an address");
    }
}

#[test]
fn serve_starts_on_a_public_bind_with_a_key() {
    let mut child = sentience(&[
        "serve",
        "--host",
        "0.0.0.0",
        "--port",
        "0",
        "--in-memory",
        "--api-key",
        "k3y",
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::null())
    .spawn()
    .expect("spawn");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("a line");
    let _ = child.kill();
    let _ = child.wait();
    assert!(line.starts_with("listening on http://0.0.0.0:"), "{line}");
}
