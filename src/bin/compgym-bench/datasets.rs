//! `datasets`: what -O2, -Oz and each pass do to the generated datasets,
//! the bundled ones and the community programs (outputs checked).

use crate::{collect_bril_files, load, usage_error, Failure};
use compgym::bril::interp;
use compgym::bril::passes::dataset_stats::{
    at_most, builtin_datasets, format_by_size, format_tables, measure_dataset, summarise, Dataset,
    HAND_WRITTEN_SIZE,
};
use std::io::Write;

pub fn datasets(args: &[String]) -> Result<(), Failure> {
    let dir = match args {
        [] => "data/bril-community".to_string(),
        [dir] => dir.clone(),
        _ => return Err(usage_error("expected at most one folder")),
    };
    let mut datasets = builtin_datasets().map_err(|e| Failure(e.to_string(), 2))?;
    let mut community = Dataset { name: "community".into(), programs: Vec::new() };
    for f in collect_bril_files(&[dir])? {
        let name = f.display().to_string();
        community.programs.push((name.clone(), load(&name)?));
    }
    datasets.push(community);
    let limits = interp::Limits::default();
    let mut stats = Vec::new();
    let mut broken = Vec::new();
    let mut by_size = String::new();
    for d in &datasets {
        let (summary, programs) =
            measure_dataset(d, &limits).map_err(|e| Failure(format!("{}: {e}", d.name), 2))?;
        broken.extend(programs.iter().filter(|p| !p.outputs_kept).map(|p| p.name.clone()));
        stats.push(summary);
        if d.name.starts_with("random-") {
            // The generated programs as large as hand-written ones.
            let name = format!("{} (≤ {HAND_WRITTEN_SIZE} instrs)", d.name);
            stats.push(summarise(&name, &at_most(&programs, HAND_WRITTEN_SIZE)));
            by_size += &format!("\n{} by size:\n\n{}", d.name, format_by_size(&programs));
        }
    }
    say!("{}", format_tables(&stats).trim_end());
    say!("{}", by_size.trim_end());
    if !broken.is_empty() {
        return Err(Failure(format!("optimisation changed the output of: {}", broken.join(", ")), 2));
    }
    Ok(())
}
