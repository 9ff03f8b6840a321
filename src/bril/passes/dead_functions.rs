//! `-dead-functions`: deletes functions that `@main` cannot reach through
//! calls. They can never run, so removing them changes nothing but size.
//! `@main` itself is always kept; a program without `@main` runs nothing and
//! is left alone.

use super::call_graph::CallGraph;
use crate::bril::ir::{FuncId, Op, Program};
use crate::error::{Error, ErrorKind, Result};

pub fn dead_functions(program: &mut Program) -> Result<bool> {
    let Some(main) = program.main() else { return Ok(false) };
    let live = CallGraph::new(program).reachable(&[main]);
    if live.iter().all(|&l| l) {
        return Ok(false);
    }
    // New index of each kept function.
    let mut new_id: Vec<Option<FuncId>> = Vec::with_capacity(live.len());
    let mut kept = 0;
    for &l in &live {
        new_id.push(l.then(|| FuncId::new(kept)));
        kept += usize::from(l);
    }
    let mut i = 0;
    program.functions.retain(|_| {
        i += 1;
        live[i - 1]
    });
    // Only a function calling one whose index moved is written to (and so copied).
    let moved = |c: Option<FuncId>| c.is_none_or(|c| new_id.get(c.index()).copied().flatten() != Some(c));
    for f in program.functions.iter_mut().filter(|f| f.instrs().any(|i| i.op == Op::Call && moved(i.func))) {
        for instr in std::sync::Arc::make_mut(f).instrs_mut().filter(|i| i.op == Op::Call) {
            let old = instr.func.ok_or_else(|| Error::new(ErrorKind::Service, "a call without a callee"))?;
            instr.func = Some(new_id.get(old.index()).copied().flatten().ok_or_else(|| {
                Error::new(ErrorKind::Service, "dead-functions: a live function calls a dead one")
            })?);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    #[test]
    fn removes_functions_main_cannot_reach_and_renumbers_calls() {
        let mut p = parse_text(
            "@a {\n  call @b;\n}\n@main {\n  call @c;\n}\n@b {\n  call @a;\n}\n@c {\n  x: int = const 1;\n  print x;\n}",
        )
        .unwrap();
        assert!(dead_functions(&mut p).unwrap());
        assert_eq!(to_text(&p), "@main {\n  call @c;\n}\n@c {\n  x: int = const 1;\n  print x;\n}\n");
        assert!(!dead_functions(&mut p).unwrap());
    }

    #[test]
    fn without_main_nothing_goes() {
        let mut p = parse_text("@f {\n}\n").unwrap();
        assert!(!dead_functions(&mut p).unwrap());
    }

    #[test]
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| dead_functions(p));
    }
}
