//! Text: strings of `min_length..=max_length` characters from a charset
//! (Gymnasium, UniEnv). Lengths count Unicode scalar values.

use super::json_util::{self as ju, JsonMap};
use super::repr::ReprOptions;
use super::sampling::int_in;
use super::{check_name, Bound, Kind, Leaf};
use crate::error::{Error, Result};
use crate::limits;
use crate::rng::Rng;
use crate::value::Value;
use serde_json::Value as Json;

/// Gymnasium's default charset: ASCII letters and digits.
pub const ALPHANUMERIC: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

#[derive(Clone, Debug, PartialEq)]
pub struct TextSpace {
    name: String,
    min_length: usize,
    max_length: usize,
    charset: Vec<char>,
}

impl TextSpace {
    /// `charset` defaults to [`ALPHANUMERIC`]; repeated characters count once.
    pub fn new(name: &str, min_length: usize, max_length: usize, charset: Option<&str>) -> Result<TextSpace> {
        let name = check_name(name, "Text name")?;
        if min_length > max_length {
            return Err(Error::value(format!("min_length ({min_length}) > max_length ({max_length})")));
        }
        let mut seen = std::collections::HashSet::new();
        let chars: Vec<char> = charset.unwrap_or(ALPHANUMERIC).chars().filter(|&c| seen.insert(c)).collect();
        if chars.is_empty() {
            return Err(Error::value("charset must not be empty"));
        }
        let t = TextSpace { name, min_length, max_length, charset: chars };
        limits::check_bytes(t.sample_bytes(), format_args!("a Text sample of max_length {max_length}"))?;
        Ok(t)
    }
    pub fn min_length(&self) -> usize {
        self.min_length
    }
    pub fn max_length(&self) -> usize {
        self.max_length
    }
    pub fn charset(&self) -> &[char] {
        &self.charset
    }
    /// A Text description whose `min_length` defaults to `min_length`.
    pub(crate) fn from_description_or(name: &str, m: &JsonMap, min_length: usize) -> Result<TextSpace> {
        let min = ju::opt_usize(m, "min_length")?.unwrap_or(min_length);
        let charset = ju::opt_string(m, "charset")?;
        TextSpace::new(name, min, ju::get_usize(m, "max_length")?, charset.as_deref())
    }

    /// The position of `c` in the charset.
    pub fn char_index(&self, c: char) -> Option<usize> {
        self.charset.iter().position(|&x| x == c)
    }
}

impl Kind for TextSpace {
    const TYPE: &'static str = "Text";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        let Value::Str(s) = value else { return false };
        let mut n = 0;
        for c in s.chars() {
            if !self.charset.contains(&c) {
                return false;
            }
            n += 1;
        }
        (self.min_length..=self.max_length).contains(&n)
    }
    fn create_empty(&self) -> Value {
        Value::Str(String::new())
    }
    fn is_bounded(&self, _: Bound) -> bool {
        true
    }
    fn describe(&self, out: &mut JsonMap) {
        out.insert("min_length".into(), Json::from(self.min_length));
        out.insert("max_length".into(), Json::from(self.max_length));
        out.insert("charset".into(), Json::from(self.charset.iter().collect::<String>()));
    }
    /// `min_length` defaults to 0, as in UniEnv (Gymnasium's 1 applies to
    /// Gymnasium descriptions, see [`TextSpace::from_description_or`]), and
    /// `charset` to alphanumerics.
    fn from_description(name: &str, m: &JsonMap) -> Result<TextSpace> {
        TextSpace::from_description_or(name, m, 0)
    }
    fn sample_bytes(&self) -> u64 {
        let widest = self.charset.iter().map(|c| c.len_utf8() as u64).max().unwrap_or(1);
        limits::bytes_of(self.max_length, widest)
    }

    fn repr(&self, o: &ReprOptions) -> String {
        let mut parts =
            vec![format!("min_length={}", self.min_length), format!("max_length={}", self.max_length)];
        if !o.abbreviate && self.charset.iter().collect::<String>() != ALPHANUMERIC {
            let shown: String = self.charset.iter().take(16).collect();
            let more = if self.charset.len() > 16 { "..." } else { "" };
            parts.push(format!("charset={shown:?}{more}"));
        }
        super::repr::call(Self::TYPE, &self.name, o, &parts)
    }
}

impl Leaf for TextSpace {
    fn sample_rng(&self, rng: &mut Rng) -> Value {
        let n = int_in(rng, self.min_length as i128, self.max_length as i128) as usize;
        let k = self.charset.len() as u64;
        let mut s = String::with_capacity(n);
        for _ in 0..n {
            s.push(self.charset[rng.below(k) as usize]);
        }
        Value::Str(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{space_from_json, Space};

    #[test]
    fn lengths_and_charset() {
        let t = TextSpace::new("t", 1, 3, Some("abé")).unwrap();
        assert!(t.contains(&Value::Str("éa".into())));
        assert!(!t.contains(&Value::Str("".into())));
        assert!(!t.contains(&Value::Str("abab".into())));
        assert!(!t.contains(&Value::Str("z".into())));
        let mut r = Rng::seed_from_u64(0);
        for _ in 0..50 {
            assert!(t.contains(&t.sample_rng(&mut r)));
        }
        assert_eq!(TextSpace::new("t", 0, 1, Some("aab")).unwrap().charset(), ['a', 'b']);
    }

    #[test]
    fn bad_arguments_and_json() {
        assert!(TextSpace::new("t", 3, 2, None)
            .unwrap_err()
            .message()
            .contains("min_length (3) > max_length (2)"));
        assert!(TextSpace::new("t", 0, 2, Some("")).unwrap_err().message().contains("charset"));
        let e = TextSpace::new("t", 0, usize::MAX, None).unwrap_err();
        assert!(e.message().contains("max_length"));
        let s: Space = TextSpace::new("t", 0, 16, Some("xyz")).unwrap().into();
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        assert_eq!(s.to_string(), "Text(t, min_length=0, max_length=16, charset=\"xyz\")");
    }
}
