//! Bril value types and literals.
//!
//! Every Bril type is a base type under zero or more `ptr<...>` wrappers, so a
//! [`Type`] is a small `Copy` value: no boxes, cheap to clone with a program.

use std::fmt;

/// The base types of Bril: core `int`/`bool`, and the `float` and `char` extensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BaseType {
    Int,
    Bool,
    Float,
    Char,
}

impl BaseType {
    pub const fn name(self) -> &'static str {
        match self {
            BaseType::Int => "int",
            BaseType::Bool => "bool",
            BaseType::Float => "float",
            BaseType::Char => "char",
        }
    }

    pub fn from_name(name: &str) -> Option<BaseType> {
        Some(match name {
            "int" => BaseType::Int,
            "bool" => BaseType::Bool,
            "float" => BaseType::Float,
            "char" => BaseType::Char,
            _ => return None,
        })
    }
}

/// A Bril type: `base` wrapped in `ptr_depth` pointers (`ptr<ptr<int>>` has depth 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Type {
    pub base: BaseType,
    pub ptr_depth: u8,
}

/// Deepest pointer nesting accepted from text or JSON; deeper is certainly a mistake.
pub const MAX_PTR_DEPTH: u8 = 32;

impl Type {
    pub const INT: Type = Type::base(BaseType::Int);
    pub const BOOL: Type = Type::base(BaseType::Bool);
    pub const FLOAT: Type = Type::base(BaseType::Float);
    pub const CHAR: Type = Type::base(BaseType::Char);

    pub const fn base(base: BaseType) -> Type {
        Type { base, ptr_depth: 0 }
    }

    pub fn is_ptr(self) -> bool {
        self.ptr_depth > 0
    }

    /// `ptr<self>`, or `None` past [`MAX_PTR_DEPTH`].
    pub fn ptr_to(self) -> Option<Type> {
        (self.ptr_depth < MAX_PTR_DEPTH).then(|| Type { base: self.base, ptr_depth: self.ptr_depth + 1 })
    }

    /// The pointee of a pointer type.
    pub fn pointee(self) -> Option<Type> {
        (self.ptr_depth > 0).then(|| Type { base: self.base, ptr_depth: self.ptr_depth - 1 })
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for _ in 0..self.ptr_depth {
            f.write_str("ptr<")?;
        }
        f.write_str(self.base.name())?;
        for _ in 0..self.ptr_depth {
            f.write_str(">")?;
        }
        Ok(())
    }
}

/// The value of a `const`, kept in the form it was written: `const 0` on a
/// float stays an integer literal, as `bril2json` writes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    Int(i64),
    Float(f64),
    Bool(bool),
    Char(char),
}

impl Literal {
    /// The register word a `const` of type `ty` holds: the interpreter's
    /// encoding, which constant folding must match bit for bit.
    pub fn bits(self, ty: Type) -> u64 {
        let float = !ty.is_ptr() && ty.base == BaseType::Float;
        match self {
            Literal::Int(i) if float => (i as f64).to_bits(),
            Literal::Int(i) => i as u64,
            // brili floors a float literal given to an int.
            Literal::Float(x) if !float => x.floor() as i64 as u64,
            Literal::Float(x) => x.to_bits(),
            Literal::Bool(b) => u64::from(b),
            Literal::Char(c) => u64::from(u32::from(c)),
        }
    }

    /// Whether a `const` of type `ty` may hold this literal. Integer
    /// literals are accepted for floats (bril2json writes `const 0` that way).
    pub fn fits(self, ty: Type) -> bool {
        if ty.is_ptr() {
            return false;
        }
        matches!(
            (self, ty.base),
            (Literal::Int(_), BaseType::Int | BaseType::Float)
                | (Literal::Float(_), BaseType::Float)
                | (Literal::Bool(_), BaseType::Bool)
                | (Literal::Char(_), BaseType::Char)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_pointer_types_print_and_unwrap() {
        let t = Type::INT.ptr_to().and_then(Type::ptr_to).unwrap();
        assert_eq!(t.to_string(), "ptr<ptr<int>>");
        assert_eq!(t.pointee().unwrap().to_string(), "ptr<int>");
        assert_eq!(Type::FLOAT.pointee(), None);
    }

    #[test]
    fn literals_fit_their_types() {
        assert!(Literal::Int(0).fits(Type::FLOAT));
        assert!(!Literal::Float(0.5).fits(Type::INT));
        assert!(!Literal::Bool(true).fits(Type::INT.ptr_to().unwrap()));
        assert!(Literal::Char('a').fits(Type::CHAR));
    }
}
