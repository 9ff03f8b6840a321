//! The state of an episode (CompilerGym's `CompilerEnvState`): a benchmark
//! and the commandline of actions that reproduce it, with the episode's
//! reward and walltime, and its CSV form:
//!
//! ```text
//! benchmark,reward,walltime,commandline
//! benchmark://toy-v0/b,4.0,0.25,-bubble -reverse
//! ```
//!
//! The header is optional when reading; an empty reward field means no
//! reward, an empty walltime 0; fields are quoted when they hold a comma, a
//! quote or a line break (quotes doubled), as Python's `csv` module does.

use crate::error::{Error, Result};

#[derive(Clone, Debug)]
pub struct CompilerEnvState {
    pub benchmark: String,
    pub commandline: String,
    pub walltime: f64,
    pub reward: Option<f64>,
}

/// Equal benchmarks and commandlines and rewards within 1e-5 (or both
/// absent); walltime is ignored, as in CompilerGym.
impl PartialEq for CompilerEnvState {
    fn eq(&self, other: &Self) -> bool {
        let rewards = match (self.reward, other.reward) {
            (None, None) => true,
            (Some(a), Some(b)) => (a - b).abs() < 1e-5,
            _ => false,
        };
        rewards && self.benchmark == other.benchmark && self.commandline == other.commandline
    }
}

pub const CSV_HEADER: &str = "benchmark,reward,walltime,commandline";

fn csv_field(out: &mut String, field: &str) {
    if field.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&field.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(field);
    }
}

fn float(x: f64) -> String {
    // Debug keeps a fraction ("1.0"), like Python's repr.
    format!("{x:?}")
}

impl CompilerEnvState {
    /// One CSV row, without a line break.
    pub fn to_csv(&self) -> String {
        let mut out = String::new();
        csv_field(&mut out, &self.benchmark);
        out.push(',');
        out.push_str(&self.reward.map(float).unwrap_or_default());
        out.push(',');
        out.push_str(&float(self.walltime));
        out.push(',');
        csv_field(&mut out, &self.commandline);
        out
    }

    /// Parses one row (a header line alone is an error).
    pub fn from_csv(line: &str) -> Result<CompilerEnvState> {
        let states = read_csv(line)?;
        match <[CompilerEnvState; 1]>::try_from(states) {
            Ok([s]) => Ok(s),
            Err(v) => Err(Error::value(format!("expected one state, found {}", v.len()))),
        }
    }
}

/// Splits CSV text into rows of fields, honouring quotes.
fn csv_rows(text: &str) -> Result<Vec<(usize, Vec<String>)>> {
    let mut rows = Vec::new();
    let (mut row, mut field) = (Vec::new(), String::new());
    let (mut quoted, mut line, mut row_line, mut any) = (false, 1, 1, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                c => {
                    line += (c == '\n') as usize;
                    field.push(c);
                }
            }
            continue;
        }
        match c {
            '"' => {
                quoted = true;
                any = true;
            }
            ',' => {
                row.push(std::mem::take(&mut field));
                any = true;
            }
            '\r' => {}
            '\n' => {
                if any || !field.is_empty() {
                    row.push(std::mem::take(&mut field));
                    rows.push((row_line, std::mem::take(&mut row)));
                }
                any = false;
                line += 1;
                row_line = line;
            }
            c => field.push(c),
        }
    }
    if quoted {
        return Err(Error::value(format!("CSV line {row_line}: unterminated quote")));
    }
    if any || !field.is_empty() {
        row.push(field);
        rows.push((row_line, row));
    }
    Ok(rows)
}

fn parse_float(s: &str, what: &str, line: usize) -> Result<f64> {
    s.trim()
        .parse::<f64>()
        .map_err(|_| Error::value(format!("CSV line {line}: {what} {s:?} is not a number")))
}

/// Reads states from CSV text; the header line may be present or not.
pub fn read_csv(text: &str) -> Result<Vec<CompilerEnvState>> {
    let mut states = Vec::new();
    for (line, fields) in csv_rows(text)? {
        if fields == ["benchmark", "reward", "walltime", "commandline"] {
            continue;
        }
        let [benchmark, reward, walltime, commandline] = <[String; 4]>::try_from(fields)
            .map_err(|f| Error::value(format!("CSV line {line}: expected 4 fields, found {}", f.len())))?;
        states.push(CompilerEnvState {
            benchmark,
            reward: if reward.is_empty() { None } else { Some(parse_float(&reward, "reward", line)?) },
            walltime: if walltime.is_empty() { 0.0 } else { parse_float(&walltime, "walltime", line)? },
            commandline,
        });
    }
    Ok(states)
}

/// Writes states as CSV with a header line.
pub fn write_csv(states: &[CompilerEnvState]) -> String {
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    for s in states {
        out.push_str(&s.to_csv());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    const FILE: &str = include_str!("../../tests/data/compiler_env_states.csv");

    fn state(benchmark: &str, reward: Option<f64>, walltime: f64, commandline: &str) -> CompilerEnvState {
        CompilerEnvState { benchmark: benchmark.into(), commandline: commandline.into(), walltime, reward }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn reads_the_hand_written_file_and_writes_it_back() {
        let states = read_csv(FILE).unwrap();
        assert_eq!(states.len(), 4);
        assert_eq!(states[0], state("benchmark://toy-v0/b", Some(4.0), 0.0, "-bubble -reverse"));
        assert_eq!(states[0].walltime, 0.25);
        assert_eq!(states[1], state("generator://toy-random-v0/7", None, 0.0, "-rotate"));
        assert_eq!(states[1].walltime, 1.5);
        assert_eq!(states[2].commandline, "opt -a,-b \"quoted\"");
        assert_eq!(states[3], state("benchmark://toy-v0/a", Some(-0.5), 0.0, ""));
        assert_eq!(states[3].walltime, 0.0, "an empty walltime is 0");
        let written = write_csv(&states);
        assert_eq!(written, FILE.replace("\r\n", "\n").replace(",,\n", ",0.0,\n"));
        let again = read_csv(&written).unwrap();
        assert_eq!(again, states);
        assert!(again.iter().zip(&states).all(|(a, b)| a.walltime == b.walltime));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn header_is_optional_and_rows_round_trip() {
        let s = state("benchmark://x-v0/y", Some(1e-7), 3.0, "-a \"b\", c");
        assert_eq!(CompilerEnvState::from_csv(&s.to_csv()).unwrap(), s);
        assert_eq!(read_csv(&s.to_csv()).unwrap(), vec![s.clone()]);
        assert_eq!(read_csv("\n\n").unwrap(), vec![]);
        assert_eq!(s.to_csv(), "benchmark://x-v0/y,1e-7,3.0,\"-a \"\"b\"\", c\"");
        // Equality ignores walltime and tolerates tiny reward differences.
        let mut t = s.clone();
        t.walltime = 99.0;
        t.reward = Some(1e-7 + 1e-6);
        assert_eq!(t, s);
        t.reward = None;
        assert_ne!(t, s);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn malformed_csv_is_a_value_error() {
        for bad in ["a,b,c", "a,1,2,x,y", "a,notanumber,1,x", "a,1,nope,x", "\"a,1,2,x"] {
            assert_eq!(read_csv(bad).unwrap_err().name(), "ValueError", "{bad:?}");
        }
        assert!(CompilerEnvState::from_csv(CSV_HEADER).is_err());
    }
}
