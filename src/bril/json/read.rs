//! Bril JSON read straight into the readers' raw program with serde's
//! visitors: no `serde_json::Value` tree is built, and names are borrowed
//! from the input unless it spells them with escapes.
//!
//! The reader keeps the guarantees of reading a tree first. Every visitor
//! accepts any JSON value and keeps what is wrong with it as a *semantic*
//! error ([`Read`]) while the document is still read to its end, so
//! malformed JSON anywhere is reported before a bad field. Each object's
//! fields are gathered first and judged afterwards in a fixed order, so the
//! error does not depend on the order of keys; a key given twice counts
//! once, the last time, and unknown keys are skipped. Nesting goes through
//! serde_json's `deserialize_*` calls, whose recursion limit (128) bounds the
//! reader's stack; nothing is preallocated from the input.

use std::fmt;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use super::super::assemble::{RawFunction, RawInstr, RawItem, RawName, RawProgram};
use super::super::ir::{BaseType, Literal, Op, Pos, Type};
use super::super::types::MAX_PTR_DEPTH;
use super::NON_FINITE;
use crate::error::{Error, ErrorKind, Result};

/// What a part of the document says: the part, or what is wrong with it.
type Read<T> = Result<T>;

/// Reads a whole program; the outer error is the JSON's own (syntax, depth,
/// end of input), the inner one the first thing wrong with the program.
pub(super) fn read_program<'de, D: Deserializer<'de>>(
    de: D,
) -> std::result::Result<Read<RawProgram<'de>>, D::Error> {
    de.deserialize_any(ProgramVisitor)
}

fn bad(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Parse, message)
}

/// Reads `T` from each key's value; the seed form lets a visitor choose.
macro_rules! seed {
    ($name:ident => $out:ty, $visitor:expr) => {
        struct $name;
        impl<'de> DeserializeSeed<'de> for $name {
            type Value = $out;
            fn deserialize<D: Deserializer<'de>>(self, de: D) -> std::result::Result<Self::Value, D::Error> {
                de.deserialize_any($visitor)
            }
        }
    };
}

/// Implements the visits of numbers and bools by passing them, as a
/// [`Scalar`], to `$wrong`, which says what is wrong with them (or keeps them).
macro_rules! numbers_to {
    ($wrong:path) => {
        fn visit_bool<E: serde::de::Error>(self, b: bool) -> std::result::Result<Self::Value, E> {
            Ok($wrong(Scalar::Bool(b)))
        }
        fn visit_i64<E: serde::de::Error>(self, n: i64) -> std::result::Result<Self::Value, E> {
            Ok($wrong(Scalar::Int(n)))
        }
        fn visit_u64<E: serde::de::Error>(self, n: u64) -> std::result::Result<Self::Value, E> {
            Ok($wrong(Scalar::uint(n)))
        }
        fn visit_f64<E: serde::de::Error>(self, x: f64) -> std::result::Result<Self::Value, E> {
            Ok($wrong(Scalar::Float(x)))
        }
    };
}

/// [`numbers_to`] for `null`.
macro_rules! null_to {
    ($wrong:path) => {
        fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<Self::Value, E> {
            Ok($wrong(Scalar::Other(Box::new(Value::Null))))
        }
    };
}

/// [`numbers_to`] for strings.
macro_rules! strings_to {
    ($wrong:path) => {
        fn visit_borrowed_str<E: serde::de::Error>(self, s: &'de str) -> std::result::Result<Self::Value, E> {
            Ok($wrong(Scalar::Str(RawName::Borrowed(s))))
        }
        fn visit_str<E: serde::de::Error>(self, s: &str) -> std::result::Result<Self::Value, E> {
            Ok($wrong(Scalar::Str(RawName::Owned(s.to_owned()))))
        }
    };
}

/// [`numbers_to`], [`null_to`] and [`strings_to`] at once.
macro_rules! all_but_containers_to {
    ($wrong:path) => {
        numbers_to!($wrong);
        null_to!($wrong);
        strings_to!($wrong);
    };
}

/// One JSON value, kept whole only when it is not a string, number or bool
/// (then only an error message needs it).
#[derive(Debug)]
enum Scalar<'de> {
    Str(RawName<'de>),
    Int(i64),
    /// An integer above `i64::MAX` (JSON's integers go to `u64::MAX`).
    BigUint(u64),
    Float(f64),
    Bool(bool),
    Other(Box<Value>),
}

impl<'de> Scalar<'de> {
    fn uint(n: u64) -> Self {
        i64::try_from(n).map_or(Scalar::BigUint(n), Scalar::Int)
    }

    fn into_str(self) -> Option<RawName<'de>> {
        match self {
            Scalar::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The value as `Value::as_u64` sees it.
    fn as_u64(&self) -> Option<u64> {
        match *self {
            Scalar::Int(n) => u64::try_from(n).ok(),
            Scalar::BigUint(n) => Some(n),
            _ => None,
        }
    }

    /// The value as JSON, for messages.
    fn to_value(&self) -> Value {
        match self {
            Scalar::Str(s) => Value::from(&**s),
            Scalar::Int(n) => Value::from(*n),
            Scalar::BigUint(n) => Value::from(*n),
            Scalar::Float(x) => Value::from(*x),
            Scalar::Bool(b) => Value::from(*b),
            Scalar::Other(v) => (**v).clone(),
        }
    }
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    all_but_containers_to!(std::convert::identity);
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Self::Value, A::Error> {
        Value::deserialize(SeqAccessDeserializer::new(seq)).map(|v| Scalar::Other(Box::new(v)))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<Self::Value, A::Error> {
        Value::deserialize(MapAccessDeserializer::new(map)).map(|v| Scalar::Other(Box::new(v)))
    }
}

seed!(AnyScalar => Scalar<'de>, ScalarVisitor);

/// An object's key, borrowed unless the input escapes it.
struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = RawName<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_borrowed_str<E: serde::de::Error>(self, s: &'de str) -> std::result::Result<Self::Value, E> {
        Ok(RawName::Borrowed(s))
    }
    fn visit_str<E: serde::de::Error>(self, s: &str) -> std::result::Result<Self::Value, E> {
        Ok(RawName::Owned(s.to_owned()))
    }
}

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = RawName<'de>;
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> std::result::Result<Self::Value, D::Error> {
        de.deserialize_str(KeyVisitor)
    }
}

/// A string field's value: `"{key}" must be a string` otherwise.
fn str_field<'de>(key: &str, value: Option<Scalar<'de>>) -> Read<Option<RawName<'de>>> {
    match value {
        None => Ok(None),
        Some(v) => v.into_str().map(Some).ok_or_else(|| bad(format!("\"{key}\" must be a string"))),
    }
}

/// Skips one value of any kind, nested as deep as serde_json allows.
struct Skip;

impl<'de> Visitor<'de> for Skip {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    all_but_containers_to!(drop);
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<(), A::Error> {
        while seq.next_element_seed(SkipSeed)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        while map.next_key_seed(SkipSeed)?.is_some() {
            map.next_value_seed(SkipSeed)?;
        }
        Ok(())
    }
}

seed!(SkipSeed => (), Skip);

/// A type: a base type's name or `{"ptr": type}`.
struct TypeVisitor;

impl<'de> Visitor<'de> for TypeVisitor {
    type Value = Read<Type>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a Bril type")
    }
    numbers_to!(type_from_scalar);
    null_to!(type_from_scalar);
    fn visit_borrowed_str<E: serde::de::Error>(self, s: &'de str) -> std::result::Result<Self::Value, E> {
        self.visit_str(s)
    }
    fn visit_str<E: serde::de::Error>(self, name: &str) -> std::result::Result<Self::Value, E> {
        let base = BaseType::from_name(name).ok_or_else(|| bad(format!("unknown type {name}")));
        Ok(base.map(|base| Type { base, ptr_depth: 0 }))
    }
    // Pointer types are rare and short: read them whole.
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Self::Value, A::Error> {
        Value::deserialize(SeqAccessDeserializer::new(seq)).map(|v| type_from_value(&v))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<Self::Value, A::Error> {
        Value::deserialize(MapAccessDeserializer::new(map)).map(|v| type_from_value(&v))
    }
}

seed!(TypeSeed => Read<Type>, TypeVisitor);

fn type_from_scalar(value: Scalar) -> Read<Type> {
    type_from_value(&value.to_value())
}

fn type_from_value(value: &Value) -> Read<Type> {
    let mut depth = 0u8;
    let mut v = value;
    loop {
        match v {
            Value::String(name) => {
                let base = BaseType::from_name(name).ok_or_else(|| bad(format!("unknown type {name}")))?;
                return Ok(Type { base, ptr_depth: depth });
            }
            Value::Object(map) if map.len() == 1 && map.contains_key("ptr") => {
                if depth >= MAX_PTR_DEPTH {
                    return Err(bad("pointer type nested too deeply"));
                }
                depth += 1;
                v = &map["ptr"];
            }
            _ => return Err(bad(format!("bad type {value}"))),
        }
    }
}

/// A `{"row", "col"}` position; anything else is an unknown position.
struct PosVisitor;

impl<'de> Visitor<'de> for PosVisitor {
    type Value = Pos;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a position")
    }
    all_but_containers_to!(unknown_pos);
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Pos, A::Error> {
        Skip.visit_seq(seq).map(|()| Pos::UNKNOWN)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Pos, A::Error> {
        let (mut row, mut col) = (None, None);
        while let Some(key) = map.next_key_seed(KeySeed)? {
            match &*key {
                "row" => row = Some(map.next_value_seed(AnyScalar)?),
                "col" => col = Some(map.next_value_seed(AnyScalar)?),
                _ => map.next_value_seed(SkipSeed)?,
            }
        }
        let field = |v: Option<Scalar>| v?.as_u64().and_then(|n| u32::try_from(n).ok());
        Ok(match (field(row), field(col)) {
            (Some(line), Some(col)) => Pos::new(line, col),
            _ => Pos::UNKNOWN,
        })
    }
}

fn unknown_pos(_: Scalar) -> Pos {
    Pos::UNKNOWN
}

seed!(PosSeed => Pos, PosVisitor);

/// A list of names (`args`, `funcs`, `labels`); `null` is an empty list.
/// What is wrong is said with the key: [`NameListError`].
struct NameListVisitor;

#[derive(Clone, Copy, Debug)]
enum NameListError {
    NotAnArray,
    NotAllStrings,
}

impl NameListError {
    fn message(self, key: &str) -> Error {
        match self {
            NameListError::NotAnArray => bad(format!("\"{key}\" must be an array")),
            NameListError::NotAllStrings => bad(format!("\"{key}\" must hold strings")),
        }
    }
}

type NameList<'de> = std::result::Result<Vec<RawName<'de>>, NameListError>;

impl<'de> Visitor<'de> for NameListVisitor {
    type Value = NameList<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of names")
    }
    numbers_to!(not_a_name_list);
    strings_to!(not_a_name_list);
    fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<Self::Value, E> {
        Ok(Ok(Vec::new()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Self::Value, A::Error> {
        let mut names = Ok(Vec::new());
        while let Some(item) = seq.next_element_seed(AnyScalar)? {
            if let Ok(list) = &mut names {
                match item.into_str() {
                    Some(name) => list.push(name),
                    None => names = Err(NameListError::NotAllStrings),
                }
            }
        }
        Ok(names)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<Self::Value, A::Error> {
        Skip.visit_map(map).map(|()| Err(NameListError::NotAnArray))
    }
}

fn not_a_name_list(_: Scalar) -> NameList {
    Err(NameListError::NotAnArray)
}

seed!(NameListSeed => NameList<'de>, NameListVisitor);

/// A literal: a number, a bool, a one-character string or one of
/// [`NON_FINITE`]'s names.
fn literal(value: Scalar) -> Read<Literal> {
    match value {
        Scalar::Bool(b) => Ok(Literal::Bool(b)),
        Scalar::Int(i) => Ok(Literal::Int(i)),
        Scalar::BigUint(n) => Err(bad(format!("integer {n} out of range"))),
        Scalar::Float(x) => Ok(Literal::Float(x)),
        Scalar::Str(s) => {
            if let Some((_, x)) = NON_FINITE.iter().find(|(name, _)| *name == s) {
                return Ok(Literal::Float(*x));
            }
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Ok(Literal::Char(c)),
                _ => Err(bad(format!("a char value must be one character, got {s:?}"))),
            }
        }
        Scalar::Other(v) => Err(bad(format!("bad literal {v}"))),
    }
}

/// One item of `instrs`: a label or an instruction, its fields gathered,
/// then judged in [`InstrFields::item`].
struct ItemVisitor;

#[derive(Default)]
struct InstrFields<'de> {
    label: Option<Scalar<'de>>,
    op: Option<Scalar<'de>>,
    dest: Option<Scalar<'de>>,
    ty: Option<Read<Type>>,
    args: Option<NameList<'de>>,
    funcs: Option<NameList<'de>>,
    labels: Option<NameList<'de>>,
    value: Option<Scalar<'de>>,
    pos: Option<Pos>,
}

impl<'de> InstrFields<'de> {
    fn item(self) -> Read<RawItem<'de>> {
        let pos = self.pos.unwrap_or(Pos::UNKNOWN);
        if let Some(label) = str_field("label", self.label)? {
            return Ok(RawItem::Label(label, pos));
        }
        let op_name =
            str_field("op", self.op)?.ok_or_else(|| bad("an instruction needs \"op\" or \"label\""))?;
        let op = Op::from_name(&op_name).ok_or_else(|| bad(format!("unknown opcode {op_name}")))?;
        let mut instr = RawInstr::new(op, pos);
        match (str_field("dest", self.dest)?, self.ty) {
            (Some(dest), Some(ty)) => instr.dest = Some((dest, ty?)),
            (Some(dest), None) => return Err(bad(format!("{op_name}: destination {dest} has no type"))),
            (None, Some(_)) => return Err(bad(format!("{op_name}: a type without a destination"))),
            (None, None) => {}
        }
        let list = |key: &str, names: Option<NameList<'de>>| -> Read<Vec<RawName<'de>>> {
            names.unwrap_or(Ok(Vec::new())).map_err(|e| e.message(key))
        };
        instr.args = list("args", self.args)?;
        instr.funcs = list("funcs", self.funcs)?;
        instr.labels = list("labels", self.labels)?;
        instr.value = self.value.map(literal).transpose()?;
        Ok(RawItem::Instr(instr))
    }
}

impl<'de> Visitor<'de> for ItemVisitor {
    type Value = Read<RawItem<'de>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an instruction or label")
    }
    all_but_containers_to!(not_an_instruction);
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Self::Value, A::Error> {
        Skip.visit_seq(seq).map(|()| Err(bad(NOT_AN_INSTRUCTION)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Self::Value, A::Error> {
        let mut f = InstrFields::default();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            match &*key {
                "label" => f.label = Some(map.next_value_seed(AnyScalar)?),
                "op" => f.op = Some(map.next_value_seed(AnyScalar)?),
                "dest" => f.dest = Some(map.next_value_seed(AnyScalar)?),
                "type" => f.ty = Some(map.next_value_seed(TypeSeed)?),
                "args" => f.args = Some(map.next_value_seed(NameListSeed)?),
                "funcs" => f.funcs = Some(map.next_value_seed(NameListSeed)?),
                "labels" => f.labels = Some(map.next_value_seed(NameListSeed)?),
                "value" => f.value = Some(map.next_value_seed(AnyScalar)?),
                "pos" => f.pos = Some(map.next_value_seed(PosSeed)?),
                _ => map.next_value_seed(SkipSeed)?,
            }
        }
        Ok(f.item())
    }
}

const NOT_AN_INSTRUCTION: &str = "an instruction must be an object";

fn not_an_instruction(_: Scalar) -> Read<RawItem> {
    Err(bad(NOT_AN_INSTRUCTION))
}

seed!(ItemSeed => Read<RawItem<'de>>, ItemVisitor);

/// `instrs`: the items, or the first bad one's index and error (the rest are
/// still read, for their syntax); `Err(None)` when it is not an array.
struct ItemsVisitor;

type Items<'de> = std::result::Result<Vec<RawItem<'de>>, Option<(usize, Error)>>;

impl<'de> Visitor<'de> for ItemsVisitor {
    type Value = Items<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of instructions")
    }
    all_but_containers_to!(not_items);
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Self::Value, A::Error> {
        let mut items = Ok(Vec::new());
        let mut i = 0;
        while let Some(item) = seq.next_element_seed(ItemSeed)? {
            match (&mut items, item) {
                (Ok(list), Ok(item)) => list.push(item),
                (Ok(_), Err(e)) => items = Err(Some((i, e))),
                (Err(_), _) => {}
            }
            i += 1;
        }
        Ok(items)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<Self::Value, A::Error> {
        Skip.visit_map(map).map(|()| Err(None))
    }
}

fn not_items(_: Scalar) -> Items {
    Err(None)
}

seed!(ItemsSeed => Items<'de>, ItemsVisitor);

/// A function parameter `{"name", "type"}`.
struct ParamVisitor;

impl<'de> Visitor<'de> for ParamVisitor {
    type Value = Read<(RawName<'de>, Type)>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a parameter")
    }
    all_but_containers_to!(not_a_param);
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Self::Value, A::Error> {
        Skip.visit_seq(seq).map(|()| Err(bad(NO_PARAM_NAME)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Self::Value, A::Error> {
        let (mut name, mut ty) = (None, None);
        while let Some(key) = map.next_key_seed(KeySeed)? {
            match &*key {
                "name" => name = Some(map.next_value_seed(AnyScalar)?),
                "type" => ty = Some(map.next_value_seed(TypeSeed)?),
                _ => map.next_value_seed(SkipSeed)?,
            }
        }
        Ok(param(name, ty))
    }
}

const NO_PARAM_NAME: &str = "a parameter needs a \"name\"";

fn not_a_param(_: Scalar) -> Read<(RawName, Type)> {
    Err(bad(NO_PARAM_NAME))
}

fn param<'de>(name: Option<Scalar<'de>>, ty: Option<Read<Type>>) -> Read<(RawName<'de>, Type)> {
    let name = str_field("name", name)?.ok_or_else(|| bad(NO_PARAM_NAME))?;
    let ty = ty.ok_or_else(|| bad("a parameter needs a \"type\""))??;
    Ok((name, ty))
}

seed!(ParamSeed => Read<(RawName<'de>, Type)>, ParamVisitor);

/// A function's `args`: `null` is none.
struct ParamsVisitor;

impl<'de> Visitor<'de> for ParamsVisitor {
    type Value = Read<Vec<(RawName<'de>, Type)>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of parameters")
    }
    numbers_to!(not_a_param_list);
    strings_to!(not_a_param_list);
    fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<Self::Value, E> {
        Ok(Ok(Vec::new()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Self::Value, A::Error> {
        let mut params = Ok(Vec::new());
        while let Some(param) = seq.next_element_seed(ParamSeed)? {
            match (&mut params, param) {
                (Ok(list), Ok(p)) => list.push(p),
                (Ok(_), Err(e)) => params = Err(e),
                (Err(_), _) => {}
            }
        }
        Ok(params)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<Self::Value, A::Error> {
        Skip.visit_map(map).map(|()| Err(bad(NOT_A_PARAM_LIST)))
    }
}

const NOT_A_PARAM_LIST: &str = "function \"args\" must be an array";

fn not_a_param_list(_: Scalar) -> Read<Vec<(RawName, Type)>> {
    Err(bad(NOT_A_PARAM_LIST))
}

seed!(ParamsSeed => Read<Vec<(RawName<'de>, Type)>>, ParamsVisitor);

/// One function, its fields gathered, then judged in the order
/// `name`, `args`, `type`, `instrs`.
struct FunctionVisitor;

impl<'de> Visitor<'de> for FunctionVisitor {
    type Value = Read<RawFunction<'de>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a function")
    }
    all_but_containers_to!(not_a_function);
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Self::Value, A::Error> {
        Skip.visit_seq(seq).map(|()| Err(no_name()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Self::Value, A::Error> {
        let (mut name, mut params, mut ret, mut items, mut pos) = (None, None, None, None, None);
        while let Some(key) = map.next_key_seed(KeySeed)? {
            match &*key {
                "name" => name = Some(map.next_value_seed(AnyScalar)?),
                "args" => params = Some(map.next_value_seed(ParamsSeed)?),
                "type" => ret = Some(map.next_value_seed(TypeSeed)?),
                "instrs" => items = Some(map.next_value_seed(ItemsSeed)?),
                "pos" => pos = Some(map.next_value_seed(PosSeed)?),
                _ => map.next_value_seed(SkipSeed)?,
            }
        }
        Ok(FunctionFields { name, params, ret, items, pos }.function())
    }
}

struct FunctionFields<'de> {
    name: Option<Scalar<'de>>,
    params: Option<Read<Vec<(RawName<'de>, Type)>>>,
    ret: Option<Read<Type>>,
    items: Option<Items<'de>>,
    pos: Option<Pos>,
}

impl<'de> FunctionFields<'de> {
    fn function(self) -> Read<RawFunction<'de>> {
        let name = str_field("name", self.name)?.ok_or_else(no_name)?;
        let params = self.params.unwrap_or(Ok(Vec::new()))?;
        let ret = self.ret.transpose()?;
        let items = match self.items.unwrap_or(Ok(Vec::new())) {
            Ok(items) => items,
            Err(None) => return Err(bad("\"instrs\" must be an array")),
            Err(Some((i, e))) => return Err(e.context(format!("@{name}: instruction {i}"))),
        };
        Ok(RawFunction { name, params, ret, items, pos: self.pos.unwrap_or(Pos::UNKNOWN) })
    }
}

fn no_name() -> Error {
    bad("a function needs a \"name\"")
}

fn not_a_function(_: Scalar) -> Read<RawFunction> {
    Err(no_name())
}

seed!(FunctionSeed => Read<RawFunction<'de>>, FunctionVisitor);

/// `functions`: the functions, or the first bad one's error with its index;
/// `Err(None)` when it is not an array.
struct FunctionsVisitor;

type Functions<'de> = std::result::Result<Vec<RawFunction<'de>>, Option<Error>>;

impl<'de> Visitor<'de> for FunctionsVisitor {
    type Value = Functions<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of functions")
    }
    all_but_containers_to!(not_functions);
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Self::Value, A::Error> {
        let mut functions = Ok(Vec::new());
        let mut i = 0;
        while let Some(f) = seq.next_element_seed(FunctionSeed)? {
            match (&mut functions, f) {
                (Ok(list), Ok(f)) => list.push(f),
                (Ok(_), Err(e)) => functions = Err(Some(e.context(format!("function {i}")))),
                (Err(_), _) => {}
            }
            i += 1;
        }
        Ok(functions)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<Self::Value, A::Error> {
        Skip.visit_map(map).map(|()| Err(None))
    }
}

fn not_functions(_: Scalar) -> Functions {
    Err(None)
}

seed!(FunctionsSeed => Functions<'de>, FunctionsVisitor);

/// The program: an object with a `functions` array.
struct ProgramVisitor;

impl<'de> Visitor<'de> for ProgramVisitor {
    type Value = Read<RawProgram<'de>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a Bril program")
    }
    all_but_containers_to!(not_a_program);
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Self::Value, A::Error> {
        Skip.visit_seq(seq).map(|()| Err(no_functions()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Self::Value, A::Error> {
        let mut functions = None;
        while let Some(key) = map.next_key_seed(KeySeed)? {
            match &*key {
                "functions" => functions = Some(map.next_value_seed(FunctionsSeed)?),
                _ => map.next_value_seed(SkipSeed)?,
            }
        }
        Ok(match functions {
            Some(Ok(functions)) => Ok(RawProgram { functions, args: None }),
            Some(Err(Some(e))) => Err(e),
            None | Some(Err(None)) => Err(no_functions()),
        })
    }
}

fn not_a_program(_: Scalar) -> Read<RawProgram> {
    Err(no_functions())
}

fn no_functions() -> Error {
    bad("a program is an object with a \"functions\" array")
}
