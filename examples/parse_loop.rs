//! Times parsing one Bril text file: `cargo run --release --example parse_loop FILE`.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: parse_loop FILE.bril");
        return;
    };
    let text = std::fs::read_to_string(&path).expect("readable file");
    let n = 20000;
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(compgym::bril::parse_text(std::hint::black_box(&text)).ok());
    }
    println!("parse {:.2} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
}
