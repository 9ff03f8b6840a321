//! Reading a command's arguments: a single file, `--passes "FLAGS"`, a
//! flag's value, comma lists.

use super::Failure;
use std::str::FromStr;

/// At most one file (`None`: standard input).
pub(super) fn single_file(args: &[String]) -> Result<Option<&str>, Failure> {
    match args {
        [] => Ok(None),
        [file] => Ok(Some(file)),
        _ => Err(Failure::usage("expected at most one file")),
    }
}

/// Takes `--passes "FLAGS"` out of `args`: the flags (split on whitespace)
/// and the other arguments.
pub(super) fn take_passes(args: &[String]) -> Result<(Option<Vec<String>>, Vec<String>), Failure> {
    let mut passes = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if arg == "--passes" {
            let flags = it.next().ok_or_else(|| Failure::usage("--passes needs a list of flags"))?;
            passes = Some(flags.split_whitespace().map(String::from).collect());
        } else {
            rest.push(arg.clone());
        }
    }
    Ok((passes, rest))
}

/// The value after `flag`, parsed.
pub(super) fn value<T: FromStr>(it: &mut std::slice::Iter<String>, flag: &str) -> Result<T, Failure> {
    it.next()
        .and_then(|s| s.parse::<T>().ok())
        .ok_or_else(|| Failure::usage(format!("{flag} needs a value of the right kind")))
}

/// `a,b,c` as its non-empty items.
pub(super) fn list(text: &str) -> Vec<String> {
    text.split(',').filter(|n| !n.is_empty()).map(String::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn passes_are_split_on_whitespace_and_taken_out() {
        let (passes, rest) = take_passes(&strings(&["-p", "--passes", " -lvn  -dce ", "f.bril"])).unwrap();
        assert_eq!(passes, Some(strings(&["-lvn", "-dce"])));
        assert_eq!(rest, strings(&["-p", "f.bril"]));
        assert_eq!(take_passes(&strings(&["--passes"])).unwrap_err().status, super::super::BAD_INPUT);
    }

    #[test]
    fn values_and_lists() {
        let args = strings(&["12", "x"]);
        let mut it = args.iter();
        assert_eq!(value::<u64>(&mut it, "--steps").unwrap(), 12);
        let error = value::<u64>(&mut it, "--steps").unwrap_err();
        assert!(error.message.starts_with("--steps needs a value of the right kind\nusage:"), "{error:?}");
        assert_eq!(list("a,,b,"), strings(&["a", "b"]));
        assert_eq!(single_file(&strings(&["a", "b"])).unwrap_err().status, 1);
    }
}
