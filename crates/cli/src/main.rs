//! The `sentience` command. A thin dispatcher: one module per subcommand
//! (`serve` here; `snapshot`, `run`, `tools` are added beside it).

mod bench_server;
mod serve;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

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
    /// Run the agent server (run API of specs/004, System 2 API of specs/000).
    Serve(serve::Args),
    /// Measure the agent server's per-step overhead with the built-in scorer.
    BenchServer(bench_server::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => serve::run(args),
        Command::BenchServer(args) => bench_server::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
