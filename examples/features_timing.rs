//! Times computing program features on the median-size suite program (by
//! instruction count), each feature family and all observations together:
//! `cargo run --release --example features_timing [NAME]`.

use std::hint::black_box;
use std::time::Instant;

use compgym::bril::features::{self, autophase, cfg, inst_count, programl};
use compgym::bril::{suite, Program};

/// Nanoseconds this thread has spent on a CPU (Linux), so that timings on
/// a busy machine count no time spent waiting for a core; wall-clock time
/// elsewhere.
fn cpu_ns(start: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .unwrap_or_else(|| start.elapsed().as_secs_f64() * 1e9)
}

/// Mean microseconds per call of `f`, over enough calls to take ~0.2 s:
/// on-CPU time and wall-clock time.
fn time(label: &str, mut f: impl FnMut()) {
    let start = Instant::now();
    let cpu_start = cpu_ns(start);
    let mut n = 0u64;
    while start.elapsed().as_secs_f64() < 0.2 {
        for _ in 0..100 {
            f();
        }
        n += 100;
    }
    let wall = start.elapsed().as_secs_f64() * 1e6 / n as f64;
    let cpu = (cpu_ns(start) - cpu_start) / 1e3 / n as f64;
    println!("{label:<28} {cpu:>9.2} us cpu {wall:>9.2} us wall");
}

fn main() {
    let mut programs: Vec<(&str, Program)> =
        suite::all().iter().map(|b| (b.name, b.program().expect("suite program parses"))).collect();
    programs.sort_by_key(|(name, p)| (p.instr_count(), *name));
    let (name, p) = match std::env::args().nth(1) {
        Some(wanted) => programs.into_iter().find(|(n, _)| *n == wanted).expect("a suite program name"),
        None => programs.swap_remove(programs.len() / 2),
    };
    println!("{name}: {} instructions, {} functions", p.instr_count(), p.functions.len());
    let p = &p;
    time("inst_count::counts", || {
        black_box(inst_count::counts(black_box(p)));
    });
    time("inst_count::normalized", || {
        black_box(inst_count::normalized(black_box(p)));
    });
    time("autophase::features", || {
        black_box(autophase::features(black_box(p)));
    });
    time("programl::graph", || {
        black_box(programl::graph(black_box(p)));
    });
    let text = compgym::bril::to_text(p);
    println!("canonical text: {} bytes", text.len());
    time("to_text", || {
        black_box(compgym::bril::to_text(black_box(p)));
    });
    time("sha1 of the text", || {
        black_box(features::sha1(black_box(text.as_bytes())));
    });
    let megabyte = vec![b'a'; 1 << 20];
    time("sha1 of 1 MiB", || {
        black_box(features::sha1(black_box(&megabyte)));
    });
    time("ir_sha1", || {
        black_box(features::ir_sha1(black_box(p)));
    });
    time("observe (all of the above)", || {
        black_box(features::observe(black_box(p)));
    });
    time("programl to_json", || {
        black_box(programl::build(p).to_json(black_box(p)));
    });
    time("cfg::to_json", || {
        black_box(cfg::to_json(black_box(p)));
    });
    time("cfg::to_dot", || {
        black_box(cfg::to_dot(black_box(p)));
    });
}
