//! What the optimiser does to a dataset of programs: the numbers behind
//! `compgym-bench datasets`, which compares generated programs with
//! hand-written ones.
//!
//! Per program: static instructions before and after `-O2` and `-Oz`, the
//! dynamic count before and after `-O2` (run on the program's own `# ARGS:`),
//! whether `-O2` left only constants and prints (the program folded away),
//! whether the outputs stayed the same, and which passes change the
//! unoptimised program when applied alone. Per dataset: medians, means and
//! shares of those.

use super::{registry, run_pipeline};
use crate::bril::interp::{run, Limits};
use crate::bril::ir::{Op, Program};
use crate::error::Result;

/// One program, measured.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramStats {
    pub name: String,
    pub static_before: usize,
    pub static_o2: usize,
    pub static_oz: usize,
    /// Dynamic instructions before and after `-O2`, when the unoptimised
    /// program runs to its end.
    pub dynamic: Option<(u64, u64)>,
    /// `-O2`'s program has nothing but constants, prints, copies and jumps.
    pub folded: bool,
    /// `-O2` and `-Oz` kept the output (and the success) of the unoptimised run.
    pub outputs_kept: bool,
    /// For each pass of the registry, in order: it changes the unoptimised
    /// program when applied alone.
    pub changed_by: Vec<bool>,
}

/// Measures `program` run on `args` within `limits`.
pub fn measure(name: &str, program: &Program, args: &[String], limits: &Limits) -> Result<ProgramStats> {
    let before = run(program, args, limits);
    let mut o2 = program.clone();
    run_pipeline(&mut o2, "-O2")?;
    let mut oz = program.clone();
    run_pipeline(&mut oz, "-Oz")?;
    let after_o2 = run(&o2, args, limits);
    let after_oz = run(&oz, args, limits);
    let kept = |after: &crate::bril::interp::Outcome| {
        after.stdout == before.stdout && after.is_ok() == before.is_ok()
    };
    let mut changed_by = Vec::with_capacity(registry().len());
    for pass in registry() {
        let mut alone = program.clone();
        changed_by.push((pass.run)(&mut alone)?);
    }
    Ok(ProgramStats {
        name: name.to_string(),
        static_before: program.instr_count(),
        static_o2: o2.instr_count(),
        static_oz: oz.instr_count(),
        dynamic: (before.is_ok() && after_o2.is_ok()).then_some((before.dyn_inst, after_o2.dyn_inst)),
        folded: only_constants(&o2),
        outputs_kept: kept(&after_o2) && kept(&after_oz),
        changed_by,
    })
}

/// Whether `program` computes nothing: every instruction is a constant, a
/// print, a copy, a jump, a return or a nop.
pub fn only_constants(program: &Program) -> bool {
    program
        .functions
        .iter()
        .flat_map(|f| &f.blocks)
        .flat_map(|b| &b.instrs)
        .all(|i| matches!(i.op, Op::Const | Op::Print | Op::Id | Op::Jmp | Op::Ret | Op::Nop))
}

/// A dataset's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct DatasetStats {
    pub name: String,
    pub programs: usize,
    /// Shares of the static instructions removed (negative: added).
    pub static_cut_o2: Spread,
    pub static_cut_oz: Spread,
    /// Median share of the dynamic count `-O2` leaves, over the programs that run.
    pub dynamic_left_o2: f64,
    /// Share of the programs `-O2` folds to constants and prints.
    pub folded: f64,
    /// Programs whose output an optimisation changed.
    pub broken: usize,
    /// For each pass of the registry: its flag and the share of programs it
    /// changes when applied alone.
    pub pass_changes: Vec<(&'static str, f64)>,
}

/// Median and mean of a list of shares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    pub median: f64,
    pub mean: f64,
}

impl Spread {
    pub fn of(values: &[f64]) -> Spread {
        if values.is_empty() {
            return Spread { median: f64::NAN, mean: f64::NAN };
        }
        Spread { median: median(values), mean: values.iter().sum::<f64>() / values.len() as f64 }
    }
}

/// The median (the mean of the middle two for an even count); NaN for none.
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// A dataset's numbers from its programs' measures.
pub fn summarise(name: &str, programs: &[ProgramStats]) -> DatasetStats {
    let cut = |after: fn(&ProgramStats) -> usize| -> Vec<f64> {
        programs
            .iter()
            .filter(|p| p.static_before > 0)
            .map(|p| 1.0 - after(p) as f64 / p.static_before as f64)
            .collect()
    };
    let left: Vec<f64> = programs
        .iter()
        .filter_map(|p| p.dynamic.filter(|d| d.0 > 0).map(|(b, a)| a as f64 / b as f64))
        .collect();
    let share =
        |count: usize| if programs.is_empty() { f64::NAN } else { count as f64 / programs.len() as f64 };
    let pass_changes = registry()
        .iter()
        .enumerate()
        .map(|(k, pass)| {
            (pass.flag, share(programs.iter().filter(|p| p.changed_by.get(k) == Some(&true)).count()))
        })
        .collect();
    DatasetStats {
        name: name.to_string(),
        programs: programs.len(),
        static_cut_o2: Spread::of(&cut(|p| p.static_o2)),
        static_cut_oz: Spread::of(&cut(|p| p.static_oz)),
        dynamic_left_o2: median(&left),
        folded: share(programs.iter().filter(|p| p.folded).count()),
        broken: programs.iter().filter(|p| !p.outputs_kept).count(),
        pass_changes,
    }
}

/// The largest hand-written programs have about this many static
/// instructions: generated programs up to it compare like with like.
pub const HAND_WRITTEN_SIZE: usize = 600;

/// The programs of at most `most` static instructions.
pub fn at_most(programs: &[ProgramStats], most: usize) -> Vec<ProgramStats> {
    programs.iter().filter(|p| p.static_before <= most).cloned().collect()
}

/// The sizes of the generated samples, cycled through by seed: a mix from
/// 20 to 10,000 statements.
pub const SAMPLE_SIZES: [u32; 10] = [20, 40, 80, 150, 300, 600, 1200, 2500, 5000, 10_000];

/// `count` programs of a generator: seed `k` with size
/// `SAMPLE_SIZES[k % 10]`, named by their URIs.
pub fn generated_sample(
    prefix: &str,
    count: u64,
    generate: fn(u64, u32) -> Result<Program>,
) -> Result<Vec<(String, Program)>> {
    (0..count)
        .map(|seed| {
            let size = SAMPLE_SIZES[(seed % SAMPLE_SIZES.len() as u64) as usize];
            Ok((format!("{prefix}{seed}?size={size}"), generate(seed, size)?))
        })
        .collect()
}

/// A named list of programs (each run on its own `# ARGS:`).
pub struct Dataset {
    pub name: String,
    pub programs: Vec<(String, Program)>,
}

/// Programs per generated dataset in [`builtin_datasets`].
pub const SAMPLE_COUNT: u64 = 100;

/// `random-v0` and `random-v1` ([`SAMPLE_COUNT`] programs each, see
/// [`generated_sample`]), `suite-v0` and `large-v0`.
pub fn builtin_datasets() -> Result<Vec<Dataset>> {
    use crate::bril::{generator, suite};
    let bundled = |list: &[suite::Benchmark]| -> Result<Vec<(String, Program)>> {
        list.iter().map(|b| Ok((b.uri(), b.program()?))).collect()
    };
    Ok(vec![
        Dataset {
            name: "random-v0".into(),
            programs: generated_sample(generator::v0::URI_PREFIX, SAMPLE_COUNT, generator::v0::generate)?,
        },
        Dataset {
            name: "random-v1".into(),
            programs: generated_sample(generator::v1::URI_PREFIX, SAMPLE_COUNT, generator::v1::generate)?,
        },
        Dataset { name: "suite-v0".into(), programs: bundled(suite::all())? },
        Dataset { name: "large-v0".into(), programs: bundled(suite::large::all()?)? },
    ])
}

/// Measures every program of `dataset` (see [`measure`]) and summarises.
pub fn measure_dataset(dataset: &Dataset, limits: &Limits) -> Result<(DatasetStats, Vec<ProgramStats>)> {
    let programs = dataset
        .programs
        .iter()
        .map(|(name, p)| measure(name, p, &p.main_args(), limits))
        .collect::<Result<Vec<_>>>()?;
    Ok((summarise(&dataset.name, &programs), programs))
}

/// Generated programs by size (read from `?size=N` in their names): per
/// size, the programs, the median static and dynamic instruction counts,
/// and the medians of `-O2`'s static cut and dynamic share left.
pub fn format_by_size(programs: &[ProgramStats]) -> String {
    let size_of = |p: &ProgramStats| p.name.rsplit_once("size=").and_then(|(_, n)| n.parse::<u32>().ok());
    let mut sizes: Vec<u32> = programs.iter().filter_map(size_of).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    let mut out = String::from(
        "| size | programs | static instructions | dynamic instructions | -O2 static cut | -O2 dynamic left |\n\
         |---:|---:|---:|---:|---:|---:|\n",
    );
    for size in sizes {
        let group: Vec<&ProgramStats> = programs.iter().filter(|p| size_of(p) == Some(size)).collect();
        let statics: Vec<f64> = group.iter().map(|p| p.static_before as f64).collect();
        let dynamics: Vec<f64> = group.iter().filter_map(|p| p.dynamic.map(|d| d.0 as f64)).collect();
        let cuts: Vec<f64> =
            group.iter().map(|p| 1.0 - p.static_o2 as f64 / p.static_before.max(1) as f64).collect();
        let left: Vec<f64> = group
            .iter()
            .filter_map(|p| p.dynamic.filter(|d| d.0 > 0).map(|(b, a)| a as f64 / b as f64))
            .collect();
        out.push_str(&format!(
            "| {size} | {} | {:.0} | {:.0} | {} | {} |\n",
            group.len(),
            median(&statics),
            median(&dynamics),
            pct(median(&cuts)),
            pct(median(&left))
        ));
    }
    out
}

/// The datasets side by side as Markdown tables: the pipelines' numbers,
/// then how often each pass changes a program alone.
pub fn format_tables(datasets: &[DatasetStats]) -> String {
    let pct = |x: f64| if x.is_nan() { "n/a".to_string() } else { format!("{:.1}%", 100.0 * x) };
    let mut out = String::new();
    out.push_str("| dataset | programs | -O2 static cut, median | mean | -Oz static cut, median | mean | -O2 dynamic left, median | folded by -O2 | outputs changed |\n");
    out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for d in datasets {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            d.name,
            d.programs,
            pct(d.static_cut_o2.median),
            pct(d.static_cut_o2.mean),
            pct(d.static_cut_oz.median),
            pct(d.static_cut_oz.mean),
            pct(d.dynamic_left_o2),
            pct(d.folded),
            d.broken
        ));
    }
    out.push_str(
        "\nShare of programs each pass changes when applied alone to the unoptimised program:\n\n| pass |",
    );
    for d in datasets {
        out.push_str(&format!(" {} |", d.name));
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(datasets.len()));
    out.push('\n');
    for (k, pass) in registry().iter().enumerate() {
        out.push_str(&format!("| `{}` |", pass.flag));
        for d in datasets {
            out.push_str(&format!(" {} |", d.pass_changes.get(k).map_or("n/a".into(), |(_, s)| pct(*s))));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;

    #[test]
    fn medians_and_spreads() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(&[]).is_nan());
        assert_eq!(Spread::of(&[0.0, 0.5, 1.0]), Spread { median: 0.5, mean: 0.5 });
    }

    #[test]
    fn a_program_that_folds_away_and_one_that_does_not() {
        let folds = parse_text("@main {\n  a: int = const 2;\n  b: int = add a a;\n  print b;\n}\n").unwrap();
        let s = measure("folds", &folds, &[], &Limits::default()).unwrap();
        assert!(s.folded && s.outputs_kept);
        assert_eq!((s.static_before, s.dynamic.map(|d| d.0)), (3, Some(3)));
        assert!(s.static_o2 < 3, "{s:?}");
        let real = parse_text("@main(x: int) {\n  b: int = add x x;\n  print b;\n}\n").unwrap();
        let r = measure("real", &real, &["4".into()], &Limits::default()).unwrap();
        assert!(!r.folded && r.outputs_kept, "{r:?}");
        let lvn = registry().iter().position(|p| p.flag == "-lvn").unwrap();
        assert!(s.changed_by[lvn] && !r.changed_by[lvn]);
        let d = summarise("two", &[s.clone(), r.clone()]);
        assert_eq!((d.programs, d.folded, d.broken), (2, 0.5, 0));
        assert_eq!(d.pass_changes[lvn], ("-lvn", 0.5));
        assert!(d.static_cut_o2.median > 0.0 && d.dynamic_left_o2 <= 1.0);
        let table = format_tables(&[d]);
        assert!(table.contains("| two | 2 |") && table.contains("| `-lvn` | 50.0% |"), "{table}");
        let small = at_most(&[s.clone(), r.clone()], 2);
        assert_eq!(small.len(), 1);
        assert_eq!(small[0].name, "real");
    }

    #[test]
    fn by_size_groups_programs_by_their_uri() {
        let p = |name: &str, before: usize, after: usize, dynamic: (u64, u64)| ProgramStats {
            name: name.into(),
            static_before: before,
            static_o2: after,
            static_oz: after,
            dynamic: Some(dynamic),
            folded: false,
            outputs_kept: true,
            changed_by: Vec::new(),
        };
        let table = format_by_size(&[
            p("g/1?size=20", 100, 90, (1000, 500)),
            p("g/2?size=20", 300, 300, (3000, 3000)),
            p("g/3?size=40", 400, 400, (8000, 6000)),
        ]);
        assert!(table.contains("| 20 | 2 | 200 | 2000 | 5.0% | 75.0% |"), "{table}");
        assert!(table.contains("| 40 | 1 | 400 | 8000 | 0.0% | 75.0% |"), "{table}");
    }

    #[test]
    fn samples_are_named_by_uri_and_cycle_sizes() {
        let sample =
            generated_sample("generator://random-v0/", 12, crate::bril::generator::v0::generate).unwrap();
        assert_eq!(sample.len(), 12);
        assert_eq!(sample[1].0, "generator://random-v0/1?size=40");
        assert_eq!(sample[11].0, "generator://random-v0/11?size=40");
    }
}
