//! `runCli(args, host)`: the `compgym` command line, which is the core's
//! `cli::run`, on a host JavaScript lends (`npx compgym` lends Node's `fs`
//! and `process`). This file converts only: the host's functions become an
//! `Io`, and what the host throws becomes the error text of the command
//! that asked (`FILE: no such file or directory (ENOENT)`).

use super::error::to_js_error;
use super::interop::object::type_of;
use super::interop::options::strings;
use super::interop::reflect::{self, message_of};
use super::interop::typed::typed_array_to_data;
use crate::cli::{self, Io};
use crate::env::Clock;
use crate::error::{Error, Result};
use crate::value::ArrayData;
use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TS_CLI: &'static str = r#"
/**
 * What `runCli` needs from its host. A function that cannot do its job
 * throws; the `message` of what it threw is printed after the path
 * (`error: prog.bril: no such file or directory (ENOENT)`).
 */
export interface CliHost {
  /** The bytes of a file (a string is taken as its text). */
  readFile(path: string): Uint8Array | string;
  /** Everything on standard input (a string is taken as its text). */
  readStdin(): Uint8Array | string;
  writeFile(path: string, text: string): void;
  /** The names of a folder's entries. */
  listFolder(path: string): string[];
  /** Whether `path` is a folder, following links. */
  isFolder(path: string): boolean;
  /** The absolute path, links resolved (names the dataset of a folder of programs). */
  realPath(path: string): string;
  /** Standard output, in pieces as they are printed (a running program's too). */
  stdout(text: string): void;
  stderr(text: string): void;
}
"#;

/// The host's functions, in `Io`'s order.
const MEMBERS: [&str; 8] =
    ["readFile", "readStdin", "writeFile", "listFolder", "isFolder", "realPath", "stdout", "stderr"];

/// A JS host as an `Io`. A result of the wrong kind is a fault: the command
/// sees it as an error, and `runCli` throws it as a TypeError afterwards.
struct Host {
    this: JsValue,
    functions: Vec<Function>,
    fault: Option<Error>,
}

impl Host {
    fn new(host: &JsValue) -> Result<Host> {
        if !host.is_object() {
            return Err(Error::type_error(format!("host must be an object, got {}", type_of(host))));
        }
        let mut functions = Vec::with_capacity(MEMBERS.len());
        for name in MEMBERS {
            let what = format!("host.{name}");
            let f = reflect::get(host, name, &what)?;
            let f = f
                .dyn_into::<Function>()
                .map_err(|f| Error::type_error(format!("{what} must be a function, got {}", type_of(&f))))?;
            functions.push(f);
        }
        Ok(Host { this: host.clone(), functions, fault: None })
    }

    /// Calls member `index`; what it throws is the host's word for the failure.
    fn call(&self, index: usize, args: &[&str]) -> std::result::Result<JsValue, String> {
        let f = &self.functions[index];
        let result = match args {
            [] => f.call0(&self.this),
            [a] => f.call1(&self.this, &JsValue::from_str(a)),
            [a, b, ..] => f.call2(&self.this, &JsValue::from_str(a), &JsValue::from_str(b)),
        };
        result.map_err(|thrown| message_of(&thrown))
    }

    /// Keeps the first fault and gives its text to the command.
    fn fault(&mut self, error: Error) -> String {
        let text = error.to_string();
        self.fault.get_or_insert(error);
        text
    }

    fn bytes(&mut self, index: usize, value: JsValue) -> std::result::Result<Vec<u8>, String> {
        let what = format!("host.{}'s result", MEMBERS[index]);
        if let Some(text) = reflect::string(&value, &what).map_err(|e| self.fault(e))? {
            return Ok(text.into_bytes());
        }
        match typed_array_to_data(&value, &what) {
            Ok(Some(ArrayData::U8(bytes))) => Ok(bytes),
            Ok(_) => Err(self.fault(Error::type_error(format!(
                "{what} must be a Uint8Array or a string, got {}",
                type_of(&value)
            )))),
            Err(e) => Err(self.fault(e)),
        }
    }

    fn read(&mut self, index: usize, args: &[&str]) -> std::result::Result<Vec<u8>, String> {
        let value = self.call(index, args)?;
        self.bytes(index, value)
    }

    fn text(&mut self, index: usize, value: JsValue) -> std::result::Result<String, String> {
        let what = format!("host.{}'s result", MEMBERS[index]);
        match reflect::string(&value, &what) {
            Ok(Some(text)) => Ok(text),
            Ok(None) => {
                Err(self
                    .fault(Error::type_error(format!("{what} must be a string, got {}", type_of(&value)))))
            }
            Err(e) => Err(self.fault(e)),
        }
    }
}

impl Io for Host {
    fn read_file(&mut self, path: &str) -> std::result::Result<Vec<u8>, String> {
        self.read(0, &[path])
    }

    fn read_stdin(&mut self) -> std::result::Result<Vec<u8>, String> {
        self.read(1, &[])
    }

    fn write_file(&mut self, path: &str, contents: &str) -> std::result::Result<(), String> {
        self.call(2, &[path, contents]).map(drop)
    }

    fn list_folder(&mut self, path: &str) -> std::result::Result<Vec<String>, String> {
        let value = self.call(3, &[path])?;
        strings(&value, "host.listFolder's result").map_err(|e| self.fault(e))
    }

    fn is_folder(&mut self, path: &str) -> bool {
        match self.call(4, &[path]) {
            Ok(value) => value.as_bool().unwrap_or_else(|| {
                let what = "host.isFolder's result";
                self.fault(Error::type_error(format!("{what} must be a boolean, got {}", type_of(&value))));
                false
            }),
            Err(_) => false,
        }
    }

    fn real_path(&mut self, path: &str) -> std::result::Result<String, String> {
        let value = self.call(5, &[path])?;
        self.text(5, value)
    }

    fn stdout(&mut self, text: &str) {
        // A host that cannot write (a closed pipe) has nowhere to say so.
        let _ = self.call(6, &[text]);
    }

    fn stderr(&mut self, text: &str) {
        let _ = self.call(7, &[text]);
    }

    fn clock(&self) -> Clock {
        super::env::js_clock
    }
}

/// Runs one `compgym` command line (`args` without the program's name) on
/// `host`: what it prints goes to the host's streams, and its exit status is
/// returned (0 ok, 1 bad input or usage, 2 a program that failed while
/// running). A host without one of its functions is a TypeError; so is a
/// function that returned the wrong kind of value (thrown after the command).
#[wasm_bindgen(js_name = runCli)]
pub fn run_cli(
    #[wasm_bindgen(unchecked_param_type = "string[]")] args: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CliHost")] host: JsValue,
) -> std::result::Result<i32, JsValue> {
    let args = strings(&args, "args").map_err(to_js_error)?;
    let mut host = Host::new(&host).map_err(to_js_error)?;
    let status = cli::run(&args, &mut host);
    match host.fault {
        Some(fault) => Err(to_js_error(fault)),
        None => Ok(status),
    }
}
