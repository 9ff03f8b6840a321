//! The one error type of compgym.
//!
//! Every fallible operation in the crate returns [`Result<T>`]. Each
//! [`ErrorKind`] has a stable [`ErrorKind::name`], which is what JavaScript
//! sees as `error.name`; messages are for people and may change.

use std::fmt;

/// What went wrong, coarsely: the part a caller can branch on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// An argument has the right type but an unacceptable value.
    Value,
    /// A name, key or flag that is not known.
    Lookup,
    /// An argument of the wrong type or dtype.
    Type,
    /// A session id that does not exist, or a step before reset.
    SessionNotFound,
    /// The compiler service failed to do what was asked.
    Service,
    /// A benchmark could not be loaded: bad URI, parse error, failed verification.
    BenchmarkInit,
    /// Bril text or JSON that does not parse.
    Parse,
    /// A Bril program that is not well formed.
    Verify,
    /// A Bril program that failed while running (division by zero, bad memory access...).
    Runtime,
    /// A resource limit was hit: fuel, memory, call depth, or one of
    /// [`crate::limits`] (nesting, bytes).
    Limit,
    /// A value that cannot be represented: a conversion that would lose data.
    Overflow,
}

impl ErrorKind {
    /// The stable name shown to JavaScript as `error.name`.
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::Value => "ValueError",
            ErrorKind::Lookup => "LookupError",
            ErrorKind::Type => "TypeError",
            ErrorKind::SessionNotFound => "SessionNotFound",
            ErrorKind::Service => "ServiceError",
            ErrorKind::BenchmarkInit => "BenchmarkInitError",
            ErrorKind::Parse => "ParseError",
            ErrorKind::Verify => "VerifyError",
            ErrorKind::Runtime => "RuntimeError",
            ErrorKind::Limit => "LimitError",
            ErrorKind::Overflow => "OverflowError",
        }
    }

    /// Every kind, for documentation and exhaustive tests.
    pub const ALL: [ErrorKind; 11] = [
        ErrorKind::Value,
        ErrorKind::Lookup,
        ErrorKind::Type,
        ErrorKind::SessionNotFound,
        ErrorKind::Service,
        ErrorKind::BenchmarkInit,
        ErrorKind::Parse,
        ErrorKind::Verify,
        ErrorKind::Runtime,
        ErrorKind::Limit,
        ErrorKind::Overflow,
    ];
}

/// An error: a kind and a human-readable message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error { kind, message: message.into() }
    }
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
    pub fn name(&self) -> &'static str {
        self.kind.name()
    }
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The same error with `context: ` put before its message.
    pub fn context(self, context: impl fmt::Display) -> Self {
        Error { kind: self.kind, message: format!("{context}: {}", self.message) }
    }

    pub fn value(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Value, message)
    }
    pub fn lookup(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Lookup, message)
    }
    pub fn type_error(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Type, message)
    }
    pub fn session_not_found(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::SessionNotFound, message)
    }
    pub fn service(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Service, message)
    }
    pub fn benchmark_init(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::BenchmarkInit, message)
    }
    pub fn overflow(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Overflow, message)
    }
    pub fn limit(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Limit, message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for Error {}

/// `bail!(Value, "low ({}) > high ({})", a, b)` returns early with an error.
#[macro_export]
macro_rules! bail {
    ($kind:ident, $($fmt:tt)+) => {
        return Err($crate::error::Error::new($crate::error::ErrorKind::$kind, format!($($fmt)+)))
    };
}

/// `ensure!(cond, Value, "...")` returns early with an error unless `cond` holds.
#[macro_export]
macro_rules! ensure {
    ($cond:expr, $kind:ident, $($fmt:tt)+) => {
        if !$cond {
            $crate::bail!($kind, $($fmt)+);
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn names_are_stable_and_distinct() {
        let names: std::collections::HashSet<_> = ErrorKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(names.len(), ErrorKind::ALL.len());
        assert_eq!(ErrorKind::Lookup.name(), "LookupError");
        assert_eq!(ErrorKind::SessionNotFound.name(), "SessionNotFound");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn display_and_context() {
        let e = Error::value("low > high").context("Box");
        assert_eq!(e.to_string(), "ValueError: Box: low > high");
        assert_eq!(e.kind(), ErrorKind::Value);
    }

    fn checked(x: i32) -> Result<i32> {
        ensure!(x >= 0, Value, "x must be non-negative, got {x}");
        Ok(x)
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn ensure_macro() {
        assert_eq!(checked(3), Ok(3));
        let e = checked(-1).unwrap_err();
        assert_eq!(e.name(), "ValueError");
        assert!(e.message().contains("-1"));
    }
}
