//! The protocol's messages as Rust values, with their JSON form.
//!
//! Inside the process the service passes these structs (values stay
//! [`Value`]s and spaces stay [`Space`]s); JSON is only for the JavaScript
//! boundary. Every message implements serde's `Serialize`/`Deserialize`
//! with the protocol's proto3 JSON shape: camelCase names (`sessionId`,
//! `endOfSession`, `newActionSpace`...), Events and Spaces as in
//! [`super::event`] and [`super::space_json`], int64 and bytes as in
//! [`super::proto_json`]. Missing fields read as their proto3 defaults.

use super::event::{value_from_event, value_to_event};
use super::proto_json::*;
use super::space_json::{space_from_message, space_to_message};
use crate::error::{Error, Result};
use crate::spaces::Space;
use crate::value::Value;
use serde_json::{json, Map, Value as Json};
use std::collections::BTreeMap;

/// A session id, unique within one service.
pub type SessionId = u64;

/// Conversions between a message and its protocol JSON.
pub trait Message: Sized {
    fn to_json(&self) -> Json;
    fn from_json(j: &Json) -> Result<Self>;
}

macro_rules! serde_via_json {
    ($($t:ty),*) => {$(
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                serde::Serialize::serialize(&Message::to_json(self), s)
            }
        }
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                let j = <Json as serde::Deserialize>::deserialize(d)?;
                <$t as Message>::from_json(&j).map_err(serde::de::Error::custom)
            }
        }
    )*};
}

type Obj = Map<String, Json>;

fn obj<'a>(j: &'a Json, what: &str) -> Result<&'a Obj> {
    json_to_object(j, what)
}
fn field<'a>(m: &'a Obj, key: &str) -> Option<&'a Json> {
    m.get(key).filter(|j| !j.is_null())
}
fn get_string(m: &Obj, key: &str) -> Result<String> {
    field(m, key).map(|s| json_to_str(s, key).map(String::from)).transpose().map(Option::unwrap_or_default)
}
fn get_bool(m: &Obj, key: &str) -> Result<bool> {
    field(m, key).map(|b| json_to_bool(b, key)).transpose().map(Option::unwrap_or_default)
}
fn get_id(m: &Obj, key: &str) -> Result<SessionId> {
    field(m, key).map(|x| json_to_uint(x, key)).transpose().map(Option::unwrap_or_default)
}
fn get_list<'a>(m: &'a Obj, key: &str) -> Result<&'a [Json]> {
    field(m, key).map(|l| json_to_list(l, key)).transpose().map(|l| l.unwrap_or(&[]))
}
fn get_indices(m: &Obj, key: &str) -> Result<Vec<usize>> {
    get_list(m, key)?.iter().map(|i| json_to_index(i, key)).collect()
}
fn get_strings(m: &Obj, key: &str) -> Result<Vec<String>> {
    get_list(m, key)?.iter().map(|s| json_to_str(s, key).map(String::from)).collect()
}
fn get_events(m: &Obj, key: &str) -> Result<Vec<Value>> {
    get_list(m, key)?.iter().map(|e| value_from_event(e).map_err(|e| e.context(key))).collect()
}
fn events(values: &[Value]) -> Json {
    values.iter().map(value_to_event).collect()
}
fn indices(list: &[usize]) -> Json {
    list.iter().map(|&i| uint_to_json(i as u64)).collect()
}

/// An action space: a name and the space of actions.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionSpace {
    pub name: String,
    /// The space, named `name`.
    pub space: Space,
}

impl ActionSpace {
    /// An action space named after its space.
    pub fn new(space: Space) -> ActionSpace {
        ActionSpace { name: space.name().to_string(), space }
    }
}

impl Message for ActionSpace {
    fn to_json(&self) -> Json {
        json!({ "name": self.name, "space": space_to_message(&self.space) })
    }
    fn from_json(j: &Json) -> Result<Self> {
        let m = obj(j, "ActionSpace")?;
        let name = get_string(m, "name")?;
        let space = field(m, "space").ok_or_else(|| Error::value("ActionSpace: space is missing"))?;
        let space = space_from_message(&name, space).map_err(|e| e.context("ActionSpace"))?;
        Ok(ActionSpace { name, space })
    }
}

/// An observation space and what a client needs to know about it.
#[derive(Clone, Debug, PartialEq)]
pub struct ObservationSpace {
    pub name: String,
    /// The space, named `name`.
    pub space: Space,
    pub deterministic: bool,
    pub platform_dependent: bool,
    /// What to use in place of an observation the service failed to compute.
    pub default_observation: Value,
}

impl ObservationSpace {
    /// A deterministic, platform-independent space with no default observation.
    pub fn new(space: Space) -> ObservationSpace {
        ObservationSpace {
            name: space.name().to_string(),
            space,
            deterministic: true,
            platform_dependent: false,
            default_observation: Value::None,
        }
    }
    pub fn with_default(mut self, value: Value) -> ObservationSpace {
        self.default_observation = value;
        self
    }
    pub fn with_deterministic(mut self, b: bool) -> ObservationSpace {
        self.deterministic = b;
        self
    }
    pub fn with_platform_dependent(mut self, b: bool) -> ObservationSpace {
        self.platform_dependent = b;
        self
    }
}

impl Message for ObservationSpace {
    fn to_json(&self) -> Json {
        json!({
            "name": self.name,
            "space": space_to_message(&self.space),
            "deterministic": self.deterministic,
            "platformDependent": self.platform_dependent,
            "defaultObservation": value_to_event(&self.default_observation),
        })
    }
    fn from_json(j: &Json) -> Result<Self> {
        let m = obj(j, "ObservationSpace")?;
        let name = get_string(m, "name")?;
        let space = field(m, "space").ok_or_else(|| Error::value("ObservationSpace: space is missing"))?;
        Ok(ObservationSpace {
            space: space_from_message(&name, space).map_err(|e| e.context("ObservationSpace"))?,
            name,
            deterministic: get_bool(m, "deterministic")?,
            platform_dependent: get_bool(m, "platformDependent")?,
            default_observation: field(m, "defaultObservation")
                .map(value_from_event)
                .transpose()?
                .unwrap_or(Value::None),
        })
    }
}

/// A program file: its bytes, or where to find them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum File {
    Contents(Vec<u8>),
    Uri(String),
}

impl Default for File {
    fn default() -> File {
        File::Contents(Vec::new())
    }
}

/// A command of a benchmark's dynamic configuration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Command {
    pub argument: Vec<String>,
    pub env: BTreeMap<String, String>,
    pub timeout_seconds: i64,
    pub infile: Vec<String>,
    pub outfile: Vec<String>,
}

impl Message for Command {
    fn to_json(&self) -> Json {
        json!({
            "argument": self.argument, "env": self.env, "timeoutSeconds": int_to_json(self.timeout_seconds),
            "infile": self.infile, "outfile": self.outfile,
        })
    }
    fn from_json(j: &Json) -> Result<Self> {
        let m = obj(j, "Command")?;
        let env = match field(m, "env") {
            None => BTreeMap::new(),
            Some(e) => obj(e, "env")?
                .iter()
                .map(|(k, v)| Ok((k.clone(), json_to_str(v, "env")?.to_string())))
                .collect::<Result<_>>()?,
        };
        Ok(Command {
            argument: get_strings(m, "argument")?,
            env,
            timeout_seconds: field(m, "timeoutSeconds")
                .map(|t| json_to_int(t, "timeoutSeconds"))
                .transpose()?
                .unwrap_or(0),
            infile: get_strings(m, "infile")?,
            outfile: get_strings(m, "outfile")?,
        })
    }
}

/// How to build and run a benchmark (kept for the protocol; the in-process
/// service does not run commands).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BenchmarkDynamicConfig {
    pub build_cmd: Option<Command>,
    pub run_cmd: Option<Command>,
    pub pre_run_cmd: Vec<Command>,
    pub post_run_cmd: Vec<Command>,
}

impl Message for BenchmarkDynamicConfig {
    fn to_json(&self) -> Json {
        let mut m = Obj::new();
        if let Some(c) = &self.build_cmd {
            m.insert("buildCmd".into(), c.to_json());
        }
        if let Some(c) = &self.run_cmd {
            m.insert("runCmd".into(), c.to_json());
        }
        m.insert("preRunCmd".into(), self.pre_run_cmd.iter().map(Command::to_json).collect());
        m.insert("postRunCmd".into(), self.post_run_cmd.iter().map(Command::to_json).collect());
        Json::Object(m)
    }
    fn from_json(j: &Json) -> Result<Self> {
        let m = obj(j, "BenchmarkDynamicConfig")?;
        let cmds = |key| get_list(m, key)?.iter().map(Command::from_json).collect::<Result<Vec<_>>>();
        Ok(BenchmarkDynamicConfig {
            build_cmd: field(m, "buildCmd").map(Command::from_json).transpose()?,
            run_cmd: field(m, "runCmd").map(Command::from_json).transpose()?,
            pre_run_cmd: cmds("preRunCmd")?,
            post_run_cmd: cmds("postRunCmd")?,
        })
    }
}

/// A program to compile, named by a URI.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Benchmark {
    pub uri: String,
    pub program: File,
    pub dynamic_config: Option<BenchmarkDynamicConfig>,
}

impl Benchmark {
    /// A benchmark whose program is `contents`.
    pub fn from_contents(uri: &str, contents: impl Into<Vec<u8>>) -> Benchmark {
        Benchmark { uri: uri.to_string(), program: File::Contents(contents.into()), dynamic_config: None }
    }
    /// A reference to a benchmark by URI alone, for the service to resolve.
    pub fn from_uri(uri: &str) -> Benchmark {
        Benchmark { uri: uri.to_string(), program: File::Contents(Vec::new()), dynamic_config: None }
    }
    /// The program's bytes; empty when the program is only a reference.
    pub fn contents(&self) -> &[u8] {
        match &self.program {
            File::Contents(c) => c,
            File::Uri(_) => &[],
        }
    }
}

impl Message for Benchmark {
    fn to_json(&self) -> Json {
        let program = match &self.program {
            File::Contents(c) => json!({ "contents": base64_encode(c) }),
            File::Uri(u) => json!({ "uri": u }),
        };
        let mut m = Obj::new();
        m.insert("uri".into(), Json::from(self.uri.as_str()));
        m.insert("program".into(), program);
        if let Some(d) = &self.dynamic_config {
            m.insert("dynamicConfig".into(), d.to_json());
        }
        Json::Object(m)
    }
    fn from_json(j: &Json) -> Result<Self> {
        // A bare string is taken as a benchmark URI.
        if let Some(uri) = j.as_str() {
            return Ok(Benchmark::from_uri(uri));
        }
        let m = obj(j, "Benchmark")?;
        let program = match field(m, "program") {
            None => File::default(),
            Some(p) => {
                let p = obj(p, "program")?;
                match (field(p, "contents"), field(p, "uri")) {
                    (Some(c), None) => {
                        File::Contents(base64_decode(json_to_str(c, "contents")?, "contents")?)
                    }
                    (None, Some(u)) => File::Uri(json_to_str(u, "uri")?.to_string()),
                    (None, None) => File::default(),
                    (Some(_), Some(_)) => return Err(Error::value("program: set contents or uri, not both")),
                }
            }
        };
        Ok(Benchmark {
            uri: get_string(m, "uri")?,
            program,
            dynamic_config: field(m, "dynamicConfig").map(BenchmarkDynamicConfig::from_json).transpose()?,
        })
    }
}

/// Declares a message with no fields.
macro_rules! empty_message {
    ($($t:ident),*) => {$(
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub struct $t {}
        impl Message for $t {
            fn to_json(&self) -> Json {
                json!({})
            }
            fn from_json(j: &Json) -> Result<Self> {
                obj(j, stringify!($t))?;
                Ok($t {})
            }
        }
    )*};
}
empty_message!(GetVersionRequest, GetSpacesRequest, AddBenchmarkReply);

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GetVersionReply {
    pub service_version: String,
    pub compiler_version: String,
}

impl Message for GetVersionReply {
    fn to_json(&self) -> Json {
        json!({ "serviceVersion": self.service_version, "compilerVersion": self.compiler_version })
    }
    fn from_json(j: &Json) -> Result<Self> {
        let m = obj(j, "GetVersionReply")?;
        Ok(GetVersionReply {
            service_version: get_string(m, "serviceVersion")?,
            compiler_version: get_string(m, "compilerVersion")?,
        })
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct GetSpacesReply {
    pub action_space_list: Vec<ActionSpace>,
    pub observation_space_list: Vec<ObservationSpace>,
}

impl Message for GetSpacesReply {
    fn to_json(&self) -> Json {
        json!({
            "actionSpaceList": self.action_space_list.iter().map(Message::to_json).collect::<Vec<_>>(),
            "observationSpaceList": self.observation_space_list.iter().map(Message::to_json).collect::<Vec<_>>(),
        })
    }
    fn from_json(j: &Json) -> Result<Self> {
        let m = obj(j, "GetSpacesReply")?;
        Ok(GetSpacesReply {
            action_space_list: get_list(m, "actionSpaceList")?
                .iter()
                .map(ActionSpace::from_json)
                .collect::<Result<_>>()?,
            observation_space_list: get_list(m, "observationSpaceList")?
                .iter()
                .map(ObservationSpace::from_json)
                .collect::<Result<_>>()?,
        })
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StartSessionRequest {
    pub benchmark: Benchmark,
    pub action_space: usize,
    pub observation_space: Vec<usize>,
}

impl Message for StartSessionRequest {
    fn to_json(&self) -> Json {
        json!({
            "benchmark": self.benchmark.to_json(),
            "actionSpace": uint_to_json(self.action_space as u64),
            "observationSpace": indices(&self.observation_space),
        })
    }
    fn from_json(j: &Json) -> Result<Self> {
        let m = obj(j, "StartSessionRequest")?;
        Ok(StartSessionRequest {
            benchmark: field(m, "benchmark").map(Benchmark::from_json).transpose()?.unwrap_or_default(),
            action_space: field(m, "actionSpace")
                .map(|i| json_to_index(i, "actionSpace"))
                .transpose()?
                .unwrap_or(0),
            observation_space: get_indices(m, "observationSpace")?,
        })
    }
}

fn opt_action_space(m: &Obj) -> Result<Option<ActionSpace>> {
    field(m, "newActionSpace").map(ActionSpace::from_json).transpose()
}

fn put_action_space(m: &mut Obj, space: &Option<ActionSpace>) {
    if let Some(a) = space {
        m.insert("newActionSpace".into(), a.to_json());
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct StartSessionReply {
    pub session_id: SessionId,
    pub new_action_space: Option<ActionSpace>,
    pub observation: Vec<Value>,
}

impl Message for StartSessionReply {
    fn to_json(&self) -> Json {
        let mut m = Obj::new();
        m.insert("sessionId".into(), uint_to_json(self.session_id));
        put_action_space(&mut m, &self.new_action_space);
        m.insert("observation".into(), events(&self.observation));
        Json::Object(m)
    }
    fn from_json(j: &Json) -> Result<Self> {
        let m = obj(j, "StartSessionReply")?;
        Ok(StartSessionReply {
            session_id: get_id(m, "sessionId")?,
            new_action_space: opt_action_space(m)?,
            observation: get_events(m, "observation")?,
        })
    }
}

/// Declares a message holding only a session id.
macro_rules! id_message {
    ($($t:ident),*) => {$(
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub struct $t {
            pub session_id: SessionId,
        }
        impl Message for $t {
            fn to_json(&self) -> Json {
                json!({ "sessionId": uint_to_json(self.session_id) })
            }
            fn from_json(j: &Json) -> Result<Self> {
                Ok($t { session_id: get_id(obj(j, stringify!($t))?, "sessionId")? })
            }
        }
    )*};
}
id_message!(ForkSessionRequest, ForkSessionReply, EndSessionRequest);

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EndSessionReply {
    pub remaining_sessions: usize,
}

impl Message for EndSessionReply {
    fn to_json(&self) -> Json {
        json!({ "remainingSessions": uint_to_json(self.remaining_sessions as u64) })
    }
    fn from_json(j: &Json) -> Result<Self> {
        let m = obj(j, "EndSessionReply")?;
        Ok(EndSessionReply {
            remaining_sessions: field(m, "remainingSessions")
                .map(|n| json_to_index(n, "remainingSessions"))
                .transpose()?
                .unwrap_or(0),
        })
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepRequest {
    pub session_id: SessionId,
    pub action: Vec<Value>,
    pub observation_space: Vec<usize>,
}

impl Message for StepRequest {
    fn to_json(&self) -> Json {
        json!({
            "sessionId": uint_to_json(self.session_id),
            "action": events(&self.action),
            "observationSpace": indices(&self.observation_space),
        })
    }
    fn from_json(j: &Json) -> Result<Self> {
        let m = obj(j, "StepRequest")?;
        Ok(StepRequest {
            session_id: get_id(m, "sessionId")?,
            action: get_events(m, "action")?,
            observation_space: get_indices(m, "observationSpace")?,
        })
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepReply {
    pub end_of_session: bool,
    pub action_had_no_effect: bool,
    pub new_action_space: Option<ActionSpace>,
    pub observation: Vec<Value>,
}

impl Message for StepReply {
    fn to_json(&self) -> Json {
        let mut m = Obj::new();
        m.insert("endOfSession".into(), Json::from(self.end_of_session));
        m.insert("actionHadNoEffect".into(), Json::from(self.action_had_no_effect));
        put_action_space(&mut m, &self.new_action_space);
        m.insert("observation".into(), events(&self.observation));
        Json::Object(m)
    }
    fn from_json(j: &Json) -> Result<Self> {
        let m = obj(j, "StepReply")?;
        Ok(StepReply {
            end_of_session: get_bool(m, "endOfSession")?,
            action_had_no_effect: get_bool(m, "actionHadNoEffect")?,
            new_action_space: opt_action_space(m)?,
            observation: get_events(m, "observation")?,
        })
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AddBenchmarkRequest {
    pub benchmark: Vec<Benchmark>,
}

impl Message for AddBenchmarkRequest {
    fn to_json(&self) -> Json {
        json!({ "benchmark": self.benchmark.iter().map(Message::to_json).collect::<Vec<_>>() })
    }
    fn from_json(j: &Json) -> Result<Self> {
        let m = obj(j, "AddBenchmarkRequest")?;
        Ok(AddBenchmarkRequest {
            benchmark: get_list(m, "benchmark")?.iter().map(Benchmark::from_json).collect::<Result<_>>()?,
        })
    }
}

/// One `<key, value>` parameter for a session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionParameter {
    pub key: String,
    pub value: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SendSessionParameterRequest {
    pub session_id: SessionId,
    pub parameter: Vec<SessionParameter>,
}

impl Message for SendSessionParameterRequest {
    fn to_json(&self) -> Json {
        let params: Vec<Json> =
            self.parameter.iter().map(|p| json!({ "key": p.key, "value": p.value })).collect();
        json!({ "sessionId": uint_to_json(self.session_id), "parameter": params })
    }
    fn from_json(j: &Json) -> Result<Self> {
        let m = obj(j, "SendSessionParameterRequest")?;
        let parameter = get_list(m, "parameter")?
            .iter()
            .map(|p| {
                let p = obj(p, "parameter")?;
                Ok(SessionParameter { key: get_string(p, "key")?, value: get_string(p, "value")? })
            })
            .collect::<Result<_>>()?;
        Ok(SendSessionParameterRequest { session_id: get_id(m, "sessionId")?, parameter })
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SendSessionParameterReply {
    pub reply: Vec<String>,
}

impl Message for SendSessionParameterReply {
    fn to_json(&self) -> Json {
        json!({ "reply": self.reply })
    }
    fn from_json(j: &Json) -> Result<Self> {
        Ok(SendSessionParameterReply { reply: get_strings(obj(j, "SendSessionParameterReply")?, "reply")? })
    }
}

serde_via_json!(
    ActionSpace,
    ObservationSpace,
    Command,
    BenchmarkDynamicConfig,
    Benchmark,
    GetVersionRequest,
    GetVersionReply,
    GetSpacesRequest,
    GetSpacesReply,
    StartSessionRequest,
    StartSessionReply,
    ForkSessionRequest,
    ForkSessionReply,
    EndSessionRequest,
    EndSessionReply,
    StepRequest,
    StepReply,
    AddBenchmarkRequest,
    AddBenchmarkReply,
    SendSessionParameterRequest,
    SendSessionParameterReply
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{Discrete, NamedDiscrete};
    use wasm_bindgen_test::wasm_bindgen_test;

    fn round_trip<
        T: Message + PartialEq + std::fmt::Debug + serde::Serialize + serde::de::DeserializeOwned,
    >(
        m: T,
    ) {
        let text = serde_json::to_string(&m).unwrap();
        let back: T = serde_json::from_str(&text).unwrap();
        assert_eq!(back, m, "{text}");
    }

    fn action_space() -> ActionSpace {
        ActionSpace::new(NamedDiscrete::new("moves", vec!["a".into(), "b".into()]).unwrap().into())
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn every_message_round_trips() {
        round_trip(GetVersionRequest {});
        round_trip(GetVersionReply { service_version: "1".into(), compiler_version: "2".into() });
        round_trip(GetSpacesRequest {});
        round_trip(GetSpacesReply {
            action_space_list: vec![action_space()],
            observation_space_list: vec![ObservationSpace::new(Discrete::new("o", 3, 0).unwrap().into())
                .with_default(Value::Int(0))
                .with_platform_dependent(true)],
        });
        let benchmark = Benchmark {
            uri: "benchmark://toy-v0/a".into(),
            program: File::Contents(b"3 1 2".to_vec()),
            dynamic_config: Some(BenchmarkDynamicConfig {
                run_cmd: Some(Command {
                    argument: vec!["./a.out".into()],
                    timeout_seconds: 5,
                    ..Default::default()
                }),
                ..Default::default()
            }),
        };
        round_trip(benchmark.clone());
        round_trip(Benchmark {
            uri: "x".into(),
            program: File::Uri("file:///x".into()),
            dynamic_config: None,
        });
        round_trip(StartSessionRequest {
            benchmark: benchmark.clone(),
            action_space: 0,
            observation_space: vec![1, 0],
        });
        round_trip(StartSessionReply {
            session_id: u64::MAX,
            new_action_space: Some(action_space()),
            observation: vec![Value::Int(1)],
        });
        round_trip(ForkSessionRequest { session_id: 3 });
        round_trip(ForkSessionReply { session_id: 4 });
        round_trip(EndSessionRequest { session_id: 3 });
        round_trip(EndSessionReply { remaining_sessions: 2 });
        round_trip(StepRequest {
            session_id: 1,
            action: vec![Value::Int(0), Value::Int(1)],
            observation_space: vec![0],
        });
        round_trip(StepReply {
            end_of_session: true,
            action_had_no_effect: false,
            new_action_space: None,
            observation: vec![Value::Str("x".into())],
        });
        round_trip(AddBenchmarkRequest { benchmark: vec![benchmark] });
        round_trip(AddBenchmarkReply {});
        round_trip(SendSessionParameterRequest {
            session_id: 1,
            parameter: vec![SessionParameter { key: "k".into(), value: "v".into() }],
        });
        round_trip(SendSessionParameterReply { reply: vec!["ok".into()] });
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn json_uses_the_protocol_names() {
        let reply = StepReply {
            end_of_session: true,
            action_had_no_effect: true,
            new_action_space: Some(action_space()),
            observation: vec![],
        };
        let j = reply.to_json();
        assert_eq!(j["endOfSession"], json!(true));
        assert_eq!(j["actionHadNoEffect"], json!(true));
        assert_eq!(j["newActionSpace"]["space"], json!({"namedDiscrete": {"name": ["a", "b"]}}));
        let req: StepRequest =
            serde_json::from_value(json!({"sessionId": "7", "action": [{"int64Value": "2"}]})).unwrap();
        assert_eq!(
            req,
            StepRequest { session_id: 7, action: vec![Value::Int(2)], observation_space: vec![] }
        );
        let start: StartSessionRequest =
            serde_json::from_value(json!({"benchmark": "benchmark://toy-v0/a"})).unwrap();
        assert_eq!(start.benchmark.uri, "benchmark://toy-v0/a");
        let b: Benchmark =
            serde_json::from_value(json!({"uri": "u", "program": {"contents": "MyAx"}})).unwrap();
        assert_eq!(b.contents(), b"3 1");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn malformed_messages_are_errors() {
        assert!(serde_json::from_value::<StepRequest>(json!({"sessionId": -1})).is_err());
        assert!(serde_json::from_value::<StepRequest>(json!({"action": [{"nope": 1}]})).is_err());
        assert!(serde_json::from_value::<ActionSpace>(json!({"name": "a"})).is_err());
        assert!(
            serde_json::from_value::<Benchmark>(json!({"program": {"contents": "!", "uri": "x"}})).is_err()
        );
        assert!(serde_json::from_value::<GetVersionRequest>(json!([])).is_err());
    }
}
