//! The `sentience` command. A thin dispatcher: one module per subcommand
//! (`serve`, `snapshot`, `run`, `tools`, `act`, `browse`, …).

mod act;
mod act_io;
mod act_step;
mod bench_commits;
mod bench_load;
mod bench_procs;
mod bench_proxy;
mod bench_report;
mod bench_server;
mod bench_target;
mod browse;
mod browse_candidates;
mod browse_page;
mod browse_transport;
mod browse_wire;
mod browser;
mod demo_site;
mod guard_args;
mod mcp;
mod run;
mod run_poll;
mod run_stream;
mod serve;
mod snapshot;
mod startup;
mod tools;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

// mimalloc, not the system allocator: a tool server screenshot decodes,
// resizes and encodes a few megabytes of pixels per call, and glibc's
// malloc hands that memory back to the kernel after each call (its trim
// threshold), so the next call page-faults it in again. Measured on a
// browser `lux` screenshot (docs/tools.md "Benchmark"): the image work
// took 7.1 ms with glibc, 6.2 with jemalloc, 3.0 with mimalloc; the call
// 32 → 27 ms (p50).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "sentience",
    version,
    about = "Let AI agents see and use web pages"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the snapshot (the JSON of docs/contracts/snapshot.md) of a page
    /// taken in Chromium with the extension.
    Snapshot(snapshot::SnapshotArgs),
    /// Run an agent task end to end: Chromium + the extension + the agent server.
    Run(run::RunArgs),
    /// Run the agent server (run API of docs/contracts/run-api.md, System 2 API of
    /// docs/contracts/system2.md).
    Serve(serve::Args),
    /// Measure the agent server's per-step overhead with the built-in scorer.
    BenchServer(bench_server::Args),
    /// Run the tool server (docs/tools.md): a browser and the desktop as HTTP "hands".
    Tools(tools::Args),
    /// Do a task through a tool server (docs/hands.md): vision providers, self-healing clicks, retry, loop detection.
    Act(act::ActArgs),
    /// Do a task through the HTML browse protocol (docs/browse.md): send the page's HTML, do the server's goto/click/type.
    Browse(browse::BrowseArgs),
    /// Print (JSON) every element the browse policies could choose in HTML files, with the selector the server would send.
    BrowseCandidates(browse_candidates::Args),
    /// Serve the browser to agent hosts over MCP (docs/mcp.md): stdio, or HTTP with --http.
    Mcp(mcp::Args),
}

/// Runs a command to its end, or until the process is asked to stop
/// (SIGINT, SIGTERM: a timeout, an agent host ending its tool). Stopping
/// drops the command's future, and with it any Chromium it launched
/// (chromiumoxide kills its child on drop) and that browser's temporary
/// profile; without this a stopped `sentience browse` or `run` left its
/// Chromium running.
fn block_on(f: impl std::future::Future<Output = anyhow::Result<()>>) -> anyhow::Result<()> {
    tokio::runtime::Runtime::new()?.block_on(async {
        tokio::select! {
            r = f => r,
            () = serve::shutdown_signal() => Err(anyhow::anyhow!("stopped by a signal; the browser it launched was closed")),
        }
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Snapshot(args) => block_on(snapshot::run(args)),
        Command::Run(args) => block_on(run::run(args)),
        Command::Serve(args) => serve::run(args),
        Command::BenchServer(args) => bench_server::run(args),
        Command::Tools(args) => tools::run(args),
        Command::Act(args) => block_on(act::run(args)),
        Command::Browse(args) => block_on(browse::run(args)),
        Command::BrowseCandidates(args) => browse_candidates::run(args),
        Command::Mcp(args) => mcp::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
