//! Commandline: a NamedDiscrete space whose points are commandline flags.
//!
//! The names of the points are the flags themselves (as in CompilerGym), so
//! `index("-dce")` is the action of the flag `-dce`.

use super::discrete::{batch, int_in_range};
use super::json_util::{self as ju, JsonMap};
use super::named_discrete::check_names;
use super::repr::{self, ReprOptions};
use super::{check_name, Bound, Kind, Leaf};
use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::value::{Array, Value};
use serde_json::{json, Value as Json};

/// One flag: a short name, the flag as written on a commandline, and what it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandlineFlag {
    pub name: String,
    pub flag: String,
    pub description: String,
}

impl CommandlineFlag {
    pub fn new(name: &str, flag: &str, description: &str) -> CommandlineFlag {
        CommandlineFlag { name: name.into(), flag: flag.into(), description: description.into() }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Commandline {
    name: String,
    items: Vec<CommandlineFlag>,
}

impl Commandline {
    pub fn new(name: &str, items: Vec<CommandlineFlag>) -> Result<Commandline> {
        let name = check_name(name, "Commandline name")?;
        for (i, item) in items.iter().enumerate() {
            if item.name.is_empty() {
                return Err(Error::value(format!("items[{i}].name must not be empty")));
            }
            // A flag with whitespace could not be read back by from_commandline.
            if item.flag.chars().any(char::is_whitespace) {
                return Err(Error::value(format!("items[{i}].flag ({:?}) contains whitespace", item.flag)));
            }
        }
        let flags: Vec<String> = items.iter().map(|i| i.flag.clone()).collect();
        check_names(&flags, "flags")?;
        Ok(Commandline { name, items })
    }
    pub fn n(&self) -> u64 {
        self.items.len() as u64
    }
    pub fn items(&self) -> &[CommandlineFlag] {
        &self.items
    }
    /// The names of the points: the flags.
    pub fn names(&self) -> Vec<&str> {
        self.flags()
    }
    pub fn flags(&self) -> Vec<&str> {
        self.items.iter().map(|i| i.flag.as_str()).collect()
    }
    pub fn descriptions(&self) -> Vec<&str> {
        self.items.iter().map(|i| i.description.as_str()).collect()
    }
    /// The value of a flag; LookupError if unknown, as CompilerGym documents
    /// (its code raises ValueError; NamedDiscrete keeps ValueError).
    pub fn index(&self, flag: &str) -> Result<i64> {
        self.items
            .iter()
            .position(|i| i.flag == flag)
            .map(|i| i as i64)
            .ok_or_else(|| Error::lookup(format!("flag {flag:?} is not in the space {:?}", self.name)))
    }
    /// The flags of `values`, separated by spaces.
    pub fn commandline(&self, values: &[i64]) -> Result<String> {
        let flags = values
            .iter()
            .map(|&v| {
                usize::try_from(v).ok().and_then(|i| self.items.get(i)).map(|i| i.flag.as_str()).ok_or_else(
                    || Error::lookup(format!("value {v} is out of range [0, {})", self.items.len())),
                )
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(flags.join(" "))
    }
    /// The values of the whitespace-separated flags of `commandline`;
    /// LookupError on a flag that is not in the space.
    pub fn from_commandline(&self, commandline: &str) -> Result<Vec<i64>> {
        commandline
            .split_whitespace()
            .map(|f| {
                self.items
                    .iter()
                    .position(|i| i.flag == f)
                    .map(|i| i as i64)
                    .ok_or_else(|| Error::lookup(format!("unknown flag {f:?}")))
            })
            .collect()
    }
    pub fn sample_batch(&self, rng: &mut Rng, count: usize) -> Array {
        batch(rng, self.n(), 0, count)
    }
}

impl Kind for Commandline {
    const TYPE: &'static str = "Commandline";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        int_in_range(value, self.n(), 0)
    }
    fn create_empty(&self) -> Value {
        Value::Int(0)
    }
    fn is_bounded(&self, _: Bound) -> bool {
        true
    }
    fn describe(&self, out: &mut JsonMap) {
        let items: Vec<Json> = self
            .items
            .iter()
            .map(|i| json!({"name": i.name, "flag": i.flag, "description": i.description}))
            .collect();
        out.insert("flags".into(), Json::Array(items));
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<Commandline> {
        let items = ju::get_array(m, "flags")?
            .iter()
            .enumerate()
            .map(|(k, j)| {
                let o = ju::as_object(j, &format!("flags[{k}]"))?;
                Ok(CommandlineFlag {
                    name: ju::get_str(o, "name")?.into(),
                    flag: ju::get_str(o, "flag")?.into(),
                    description: ju::opt_string(o, "description")?.unwrap_or_default(),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Commandline::new(name, items)
    }
    /// A sample is one number, held in its `Value`.
    fn sample_bytes(&self) -> u64 {
        0
    }

    fn repr(&self, o: &ReprOptions) -> String {
        let mut parts = vec![self.n().to_string()];
        if !o.abbreviate {
            parts.push(format!("flags={}", repr::bound_list(&self.flags(), |s| s.to_string())));
        }
        repr::call(Self::TYPE, &self.name, o, &parts)
    }
}

impl Leaf for Commandline {
    fn sample_rng(&self, rng: &mut Rng) -> Value {
        Value::Int(rng.below(self.n()) as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{space_from_json, Space};

    fn ab() -> Commandline {
        Commandline::new(
            "flags",
            vec![CommandlineFlag::new("a", "-a", "A flag"), CommandlineFlag::new("b", "-b", "Another flag")],
        )
        .unwrap()
    }

    #[test]
    fn flags_are_the_names() {
        let c = ab();
        assert_eq!(c.n(), 2);
        assert_eq!(c.index("-a").unwrap(), 0);
        assert_eq!(c.names(), ["-a", "-b"]);
        assert_eq!(c.flags()[0], "-a");
        assert_eq!(c.descriptions()[0], "A flag");
        // CompilerGym documents LookupError for an unknown flag.
        assert_eq!(c.index("a").unwrap_err().name(), "LookupError");
    }

    #[test]
    fn commandline_round_trip_and_errors() {
        let c = ab();
        assert_eq!(c.commandline(&[0, 1]).unwrap(), "-a -b");
        assert_eq!(c.commandline(&[]).unwrap(), "");
        assert_eq!(c.from_commandline("  -b   -a -b ").unwrap(), [1, 0, 1]);
        let e = c.from_commandline("-a -c").unwrap_err();
        assert_eq!(e.name(), "LookupError");
        assert!(e.message().contains("-c"));
        assert_eq!(c.commandline(&[2]).unwrap_err().name(), "LookupError");
        assert_eq!(c.commandline(&[-1]).unwrap_err().name(), "LookupError");
    }

    #[test]
    fn bad_items() {
        let e = Commandline::new(
            "c",
            vec![CommandlineFlag::new("a", "-a", ""), CommandlineFlag::new("b", "-a", "")],
        )
        .unwrap_err();
        assert!(e.message().contains("flags[1]"), "{e}");
        let e = Commandline::new("c", vec![CommandlineFlag::new("", "-a", "")]).unwrap_err();
        assert!(e.message().contains("items[0].name"));
        let e = Commandline::new("c", vec![CommandlineFlag::new("a", "-a b", "")]).unwrap_err();
        assert!(e.message().contains("whitespace"));
        assert!(Commandline::new("c", vec![CommandlineFlag::new("a", "", "")]).is_err());
    }

    #[test]
    fn json() {
        let s: Space = ab().into();
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        assert_eq!(s.to_string(), "Commandline(flags, 2, flags=[-a, -b])");
    }
}
