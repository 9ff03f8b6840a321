use super::*;
use crate::bril::interp::{run, Limits};

#[test]
fn smoke() {
    for seed in 0..20u64 {
        let text = generate_text(seed, 100);
        let p = parse_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        crate::bril::verify(&p).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let o = run(&p, &p.main_args(), &Limits::default());
        assert!(o.result.is_ok(), "{:?}\n{text}", o.result);
    }
}
