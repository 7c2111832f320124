//! Prints the goal structure of each task given on the command line (or one
//! per line on stdin): `cargo run -p sentience-agent --example parse -- "Log in as alice"`.
use sentience_agent::intent::Intent;
use std::io::BufRead;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tasks: Vec<String> = if args.is_empty() {
        std::io::stdin()
            .lock()
            .lines()
            .map_while(Result::ok)
            .collect()
    } else {
        args
    };
    for t in tasks {
        println!("{t}\n  {}", Intent::parse(&t).describe());
    }
}
