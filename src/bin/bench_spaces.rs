//! Prints the space-core micro benchmarks: `cargo run --release --bin bench_spaces [seconds]`.

fn main() {
    let seconds = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let start = std::time::Instant::now();
    let mut clock = || start.elapsed().as_secs_f64();
    let results = compgym::spaces::bench::run_benchmarks(&mut clock, seconds);
    print!("{}", compgym::spaces::bench::format_results(&results));
}
