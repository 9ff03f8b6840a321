//! Readable text for spaces (`Display` and UniEnv's `get_repr`).

/// What [`super::Space::get_repr`] includes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReprOptions {
    /// Only the structure: no name, no bounds.
    pub abbreviate: bool,
    pub include_dtype: bool,
}

impl Default for ReprOptions {
    fn default() -> Self {
        ReprOptions { abbreviate: false, include_dtype: true }
    }
}

/// How many elements of a bound are shown before `...`.
const SHOWN: usize = 6;

/// A float the way Python prints it: `1.0`, `-inf`, `0.5`.
pub fn float(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else if x.fract() == 0.0 && x.abs() < 1e16 {
        format!("{x:.1}")
    } else {
        format!("{x}")
    }
}

/// A list of displayable items: one value if all are equal, else `[a, b, ...]`.
pub fn bound_list<T: PartialEq>(items: &[T], show: impl Fn(&T) -> String) -> String {
    match items.first() {
        None => "[]".into(),
        Some(first) if items.iter().all(|x| x == first) => show(first),
        Some(_) => {
            let mut parts: Vec<String> = items.iter().take(SHOWN).map(&show).collect();
            if items.len() > SHOWN {
                parts.push("...".into());
            }
            format!("[{}]", parts.join(", "))
        }
    }
}

/// `(2, 3)` for a shape, Python style (`(2,)` for one dimension).
pub fn shape(shape: &[usize]) -> String {
    match shape {
        [d] => format!("({d},)"),
        _ => format!("({})", shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")),
    }
}

/// `Kind(name, part, part, ...)` or, abbreviated, `Kind(part, ...)`.
pub fn call(kind: &str, name: &str, options: &ReprOptions, parts: &[String]) -> String {
    let mut all: Vec<&str> = Vec::with_capacity(parts.len() + 1);
    if !options.abbreviate {
        all.push(name);
    }
    all.extend(parts.iter().map(String::as_str).filter(|p| !p.is_empty()));
    format!("{kind}({})", all.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(float(1.0), "1.0");
        assert_eq!(float(-f64::INFINITY), "-inf");
        assert_eq!(float(0.25), "0.25");
        assert_eq!(bound_list(&[1.0, 1.0], |x| float(*x)), "1.0");
        assert_eq!(bound_list(&[1, 2, 3, 4, 5, 6, 7], |x| x.to_string()), "[1, 2, 3, 4, 5, 6, ...]");
        assert_eq!(shape(&[3]), "(3,)");
        assert_eq!(shape(&[2, 3]), "(2, 3)");
        assert_eq!(shape(&[]), "()");
        let o = ReprOptions::default();
        assert_eq!(call("Discrete", "a", &o, &["3".into()]), "Discrete(a, 3)");
    }
}
