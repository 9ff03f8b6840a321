// scratch: headroom of "prefix then pipeline" (not committed)
use compgym::bril::interp::{run, Limits};
use compgym::bril::passes::{registry, run_flags, run_pipeline};
use compgym::bril::{parse_text, suite, Program};
fn dynamic(p: &Program, args: &[String]) -> Option<f64> {
    let o = run(p, args, &Limits::default());
    o.result.ok().map(|_| o.dyn_inst as f64)
}
fn main() {
    let task = std::env::args().nth(1).unwrap_or("size".into());
    let depth2 = std::env::args().nth(2).is_some();
    let mut progs: Vec<(String, String)> = suite::all().iter().map(|b| (b.uri(), b.source.to_string())).collect();
    progs.extend(suite::large::all().iter().map(|b| (b.uri(), b.source.to_string())));
    for d in ["core", "float", "mem", "mixed", "long"] {
        let mut fs: Vec<_> = std::fs::read_dir(format!("data/bril-community/{d}")).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "bril")).collect();
        fs.sort();
        for f in fs { progs.push((f.display().to_string(), std::fs::read_to_string(&f).unwrap())); }
    }
    let flags: Vec<&str> = registry().iter().map(|p| p.flag).collect();
    let pipe = if task == "size" { "-Oz" } else { "-O2" };
    let (mut lsum, mut lsum1, mut n, mut better) = (0.0, 0.0, 0, 0);
    let mut wins: std::collections::HashMap<String, usize> = Default::default();
    let mut fixed = vec![(0.0f64, 0usize); flags.len()];
    for (name, src) in &progs {
        let Ok(p) = parse_text(src) else { continue };
        let args = p.main_args();
        let cost = |q: &Program| -> Option<f64> { if task == "size" { Some(q.instr_count() as f64) } else { dynamic(q, &args) } };
        let mut base = p.clone(); run_pipeline(&mut base, pipe).unwrap();
        let Some(bc) = cost(&base) else { continue };
        if task != "size" && bc > 5e6 { continue; }
        let mut best = (bc, String::from("-"));
        let mut best1 = bc;
        for f in &flags {
            let mut q = p.clone(); run_flags(&mut q, &[f]).unwrap(); let q1 = q.clone();
            run_pipeline(&mut q, pipe).unwrap();
            if let Some(c) = cost(&q) { let i = flags.iter().position(|x| x==f).unwrap(); fixed[i].0 += (bc.max(1.0)/c.max(1.0)).ln(); if c > bc { fixed[i].1 += 1; } if c < best.0 { best = (c, f.to_string()); } if c < best1 { best1 = c; } }
            if depth2 { for g in &flags { let mut r = q1.clone(); run_flags(&mut r, &[g]).unwrap(); run_pipeline(&mut r, pipe).unwrap();
                if let Some(c) = cost(&r) { if c < best.0 { best = (c, format!("{f} {g}")); } } } }
        }
        n += 1; lsum += (bc.max(1.0) / best.0.max(1.0)).ln(); lsum1 += (bc.max(1.0)/best1.max(1.0)).ln();
        if best.0 < bc { better += 1; *wins.entry(best.1.clone()).or_default() += 1; }
        println!("{name}: base {bc} best {} via {} ({:.3}x)", best.0, best.1, bc.max(1.0)/best.0.max(1.0));
    }
    println!("n={n} better={better} geomean best depth{}: {:.4}  depth1: {:.4}", if depth2 {2} else {1}, (lsum / n as f64).exp(), (lsum1/n as f64).exp());
    for (i,f) in flags.iter().enumerate() { println!("fixed {f}: {:.4} worse {}", (fixed[i].0/n as f64).exp(), fixed[i].1); }
    let mut w: Vec<_> = wins.into_iter().collect(); w.sort_by(|a,b| b.1.cmp(&a.1)); println!("{w:?}");
}
