//! `interp`: the interpreter's throughput (dynamic instructions per second)
//! on the largest programs given, and the parser's time.

use crate::{collect_bril_files, load, usage_error, Failure};
use compgym::bril::{self, interp, Program};
use std::io::Write;
use std::time::Instant;

pub fn interp(args: &[String]) -> Result<(), Failure> {
    let mut seconds = 1.0;
    let mut paths = Vec::new();
    let mut json = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--json" {
            json = true;
        } else if a == "--seconds" {
            seconds = it
                .next()
                .and_then(|s| s.parse::<f64>().ok())
                .filter(|s| *s > 0.0)
                .ok_or_else(|| usage_error("--seconds needs a positive number"))?;
        } else {
            paths.push(a.clone());
        }
    }

    // (name, program): files given, or the bundled suite.
    let mut programs: Vec<(String, Program)> = Vec::new();
    if paths.is_empty() {
        for b in bril::suite::all() {
            let p = b.program().map_err(|e| Failure(format!("{}: {e}", b.name), 1))?;
            programs.push((b.name.to_string(), p));
        }
    } else {
        for f in collect_bril_files(&paths)? {
            let name = f.display().to_string();
            let p = load(&name)?;
            programs.push((name, p));
        }
    }

    let start = Instant::now();
    let mut now = move || start.elapsed().as_secs_f64();
    // Rank by dynamic size with one quick run, then time the largest few.
    let mut sized: Vec<(u64, String, Program)> = Vec::new();
    for (name, p) in programs {
        let args = p.main_args();
        let o = interp::run(&p, &args, &interp::Limits::default());
        if o.result.is_ok() {
            sized.push((o.dyn_inst, name, p));
        }
    }
    sized.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut total_inst = 0.0;
    let mut total_secs = 0.0;
    if !json {
        say!("{:>14} {:>8} {:>10}  program", "instr/s", "runs", "dyn_inst");
    }
    let mut rates = serde_json::Map::new();
    for (_, name, p) in sized.iter().take(8) {
        let m = bril::bench::measure(p, &p.main_args(), seconds / 8.0, &mut now)
            .map_err(|e| Failure(format!("{name}: {e}"), 2))?;
        total_inst += m.dyn_inst as f64 * f64::from(m.runs);
        total_secs += m.seconds;
        if json {
            rates.insert(name.clone(), m.per_second().into());
        } else {
            say!("{:>14.0} {:>8} {:>10}  {name}", m.per_second(), m.runs, m.dyn_inst);
        }
    }
    if json {
        say!("{}", serde_json::Value::Object(rates));
        return Ok(());
    }
    if total_secs > 0.0 {
        say!("{:>14.0} overall", total_inst / total_secs);
    }
    if let Some((_, name, p)) = sized.iter().max_by_key(|(_, _, p)| p.instr_count()) {
        let text = bril::to_text(p);
        let us =
            bril::bench::parse_time(&text, 0.2, &mut now).map_err(|e| Failure(format!("{name}: {e}"), 2))?;
        say!("parse: {us:.1} us for {} static instructions ({name})", p.instr_count());
    }
    Ok(())
}
