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

/// The command's output once it has exited; a panic (not a hang) if it
/// is still running after a while: it started serving.
fn exits_within(mut cmd: Command, args: &[&str]) -> std::process::Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sentience");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while child.try_wait().expect("wait").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "{args:?} is still running: it started without a key ({})",
                String::from_utf8_lossy(&out.stdout).trim()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().expect("output")
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
        let out = exits_within(sentience(args), args);
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
