//! The in-process service: owns sessions and benchmarks and answers every
//! RPC of the protocol by direct calls, without serialisation.
//!
//! Errors: an unknown session id is SessionNotFound; an index outside the
//! space lists, or an unknown parameter key, is a ValueError; a benchmark
//! that cannot be found or loaded is a BenchmarkInitError; anything a
//! session fails to do is a ServiceError. Through [`Service::call_json`], a
//! malformed request is a ValueError naming the method and the field, and an
//! unknown method a LookupError. None of them leaves the service in a bad
//! state.

use super::benchmark::{BenchmarkStore, BenchmarkUri, Dataset};
use super::messages::*;
use super::session::{CompilationSession, CompilerBackend};
use crate::error::{Error, ErrorKind, Result};
use crate::value::Value;
use serde_json::Value as Json;
use std::borrow::Cow;
use std::collections::HashMap;
use std::rc::Rc;

/// The version of the service itself (GetVersion's `service_version`).
pub const SERVICE_VERSION: &str = crate::VERSION;

/// The RPCs [`Service::call_json`] answers, by their protocol names.
pub const METHODS: [&str; 8] = [
    "GetVersion",
    "GetSpaces",
    "StartSession",
    "ForkSession",
    "EndSession",
    "Step",
    "AddBenchmark",
    "SendSessionParameter",
];

/// What a step did, apart from the observations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepOutcome {
    pub end_of_session: bool,
    /// True when every action had no effect (and for an empty action list).
    pub action_had_no_effect: bool,
    pub new_action_space: Option<ActionSpace>,
}

pub struct Service {
    backend: Box<dyn CompilerBackend>,
    /// Immutable, so services of one compiler can share them
    /// ([`Service::sharing_spaces`]).
    action_spaces: Rc<[ActionSpace]>,
    observation_spaces: Rc<[ObservationSpace]>,
    sessions: HashMap<SessionId, Box<dyn CompilationSession>>,
    next_id: SessionId,
    benchmarks: BenchmarkStore,
}

/// Computes the observations `indices` name into `out` (cleared first).
/// Each space is computed once however often it is named, and when a space
/// is named more than once the copies are checked against the byte budget
/// before any is made: a request of 10^6 indices costs one computation per
/// space and 10^6 copies, or a LimitError if those would not fit.
fn observe_into(
    session: &mut dyn CompilationSession,
    spaces: &[ObservationSpace],
    indices: &[usize],
    out: &mut Vec<Value>,
) -> Result<()> {
    out.clear();
    let compute = |session: &mut dyn CompilationSession, i: usize| {
        let space = &spaces[i];
        session.get_observation(i, space).map_err(|e| session_error(e, &space.name))
    };
    // The usual request, a few distinct spaces, needs no table (a step allocates nothing).
    if indices.len() <= 8 && indices.iter().enumerate().all(|(k, i)| !indices[..k].contains(i)) {
        for &i in indices {
            out.push(compute(session, i)?);
        }
        return Ok(());
    }
    // Per space: its value, and how many of the indices still name it (the
    // last one takes the value instead of a copy).
    let mut computed: Vec<(Option<Value>, usize)> = vec![(None, 0); spaces.len()];
    for &i in indices {
        let (value, uses) = &mut computed[i];
        if value.is_none() {
            *value = Some(compute(session, i)?);
        }
        *uses += 1;
    }
    if computed.iter().any(|(_, uses)| *uses > 1) {
        let total = computed
            .iter()
            .filter_map(|(v, uses)| {
                Some(crate::limits::bytes_of(*uses, crate::limits::value_bytes(v.as_ref()?)))
            })
            .fold(0u64, u64::saturating_add);
        crate::limits::check_bytes(total, format_args!("{} observations", indices.len()))?;
    }
    out.reserve(indices.len());
    for &i in indices {
        let (value, uses) = &mut computed[i];
        *uses -= 1;
        out.extend(if *uses == 0 { value.take() } else { value.clone() });
    }
    Ok(())
}

/// A session's error as the client sees it.
fn session_error(e: Error, what: &str) -> Error {
    match e.kind() {
        ErrorKind::Service => e.context(what),
        _ => Error::service(format!("{what}: {e}")),
    }
}

impl Service {
    pub fn new(backend: Box<dyn CompilerBackend>) -> Service {
        Service {
            action_spaces: backend.action_spaces().into(),
            observation_spaces: backend.observation_spaces().into(),
            backend,
            sessions: HashMap::new(),
            next_id: 0,
            benchmarks: BenchmarkStore::default(),
        }
    }

    /// A new service for `backend`, which must be the same compiler as
    /// `like`'s, sharing `like`'s spaces instead of building its own: a
    /// compiler's spaces are immutable, and building them is most of what a
    /// new service costs. Sessions and added benchmarks are not shared.
    pub fn sharing_spaces(backend: Box<dyn CompilerBackend>, like: &Service) -> Service {
        Service {
            action_spaces: like.action_spaces.clone(),
            observation_spaces: like.observation_spaces.clone(),
            backend,
            sessions: HashMap::new(),
            next_id: 0,
            benchmarks: BenchmarkStore::default(),
        }
    }

    pub fn get_version(&self) -> GetVersionReply {
        GetVersionReply {
            service_version: SERVICE_VERSION.to_string(),
            compiler_version: self.backend.compiler_version(),
        }
    }

    pub fn get_spaces(&self) -> GetSpacesReply {
        GetSpacesReply {
            action_space_list: self.action_spaces.to_vec(),
            observation_space_list: self.observation_spaces.to_vec(),
        }
    }

    pub fn action_spaces(&self) -> &[ActionSpace] {
        &self.action_spaces
    }

    pub fn observation_spaces(&self) -> &[ObservationSpace] {
        &self.observation_spaces
    }

    /// The action spaces, shared rather than copied.
    pub fn shared_action_spaces(&self) -> Rc<[ActionSpace]> {
        self.action_spaces.clone()
    }

    pub fn datasets(&self) -> Vec<Dataset> {
        self.backend.datasets()
    }

    /// The number of live sessions.
    pub fn session_count(&self) -> usize {
        self.sessions.len()
    }

    fn session(&mut self, id: SessionId) -> Result<&mut Box<dyn CompilationSession>> {
        self.sessions
            .get_mut(&id)
            .ok_or_else(|| Error::session_not_found(format!("session {id} does not exist")))
    }

    fn check_observation_indices(&self, indices: &[usize]) -> Result<()> {
        let n = self.observation_spaces.len();
        match indices.iter().find(|&&i| i >= n) {
            Some(i) => {
                Err(Error::value(format!("observation space index {i} is out of range: there are {n}")))
            }
            None => Ok(()),
        }
    }

    /// The benchmark a request names: its own program if it carries one,
    /// else an added benchmark, else whatever the backend resolves.
    pub fn resolve_benchmark<'a>(&'a self, benchmark: &'a Benchmark) -> Result<Cow<'a, Benchmark>> {
        let uri = BenchmarkUri::parse(&benchmark.uri)?;
        match &benchmark.program {
            File::Contents(c) if !c.is_empty() => return Ok(Cow::Borrowed(benchmark)),
            File::Uri(u) if u != &benchmark.uri => {
                return self.resolve_benchmark(&Benchmark::from_uri(u)).map(|b| Cow::Owned(b.into_owned()));
            }
            _ => {}
        }
        if let Some(b) = self.benchmarks.get(&uri) {
            return Ok(Cow::Borrowed(b));
        }
        match self.backend.resolve_benchmark(&uri) {
            Ok(Some(b)) => Ok(Cow::Owned(b)),
            Ok(None) => Err(Error::benchmark_init(format!("unknown benchmark {uri}"))),
            Err(e) if e.kind() == ErrorKind::BenchmarkInit => Err(e),
            Err(e) => Err(Error::benchmark_init(format!("{uri}: {e}"))),
        }
    }

    fn new_id(&mut self) -> SessionId {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        id
    }

    pub fn start_session(&mut self, request: &StartSessionRequest) -> Result<StartSessionReply> {
        let n = self.action_spaces.len();
        if request.action_space >= n {
            return Err(Error::value(format!(
                "action space index {} is out of range: there are {n}",
                request.action_space
            )));
        }
        self.check_observation_indices(&request.observation_space)?;
        let benchmark = self.resolve_benchmark(&request.benchmark)?;
        let mut session = match self.backend.start_session(&benchmark, request.action_space) {
            Ok(s) => s,
            Err(e) if e.kind() == ErrorKind::BenchmarkInit => return Err(e),
            Err(e) => return Err(Error::benchmark_init(format!("{}: {e}", request.benchmark.uri))),
        };
        let mut observation = Vec::new();
        observe_into(
            session.as_mut(),
            &self.observation_spaces,
            &request.observation_space,
            &mut observation,
        )?;
        let new_action_space = session.new_action_space();
        let session_id = self.new_id();
        self.sessions.insert(session_id, session);
        Ok(StartSessionReply { session_id, new_action_space, observation })
    }

    pub fn fork_session(&mut self, session_id: SessionId) -> Result<SessionId> {
        let fork = self.session(session_id)?.fork().map_err(|e| session_error(e, "fork"))?;
        let id = self.new_id();
        self.sessions.insert(id, fork);
        Ok(id)
    }

    /// Ends a session; returns how many remain.
    /// Lets the backend forget what it remembers between sessions.
    pub fn forget_recent(&mut self) {
        self.backend.forget_recent();
    }

    pub fn end_session(&mut self, session_id: SessionId) -> Result<usize> {
        match self.sessions.remove(&session_id) {
            Some(_) => Ok(self.sessions.len()),
            None => Err(Error::session_not_found(format!("session {session_id} does not exist"))),
        }
    }

    /// Step without allocating: applies `actions` in order (stopping at the
    /// end of the session), then computes `observation_space` into
    /// `observations` (cleared first).
    pub fn step_into(
        &mut self,
        session_id: SessionId,
        actions: &[Value],
        observation_space: &[usize],
        observations: &mut Vec<Value>,
    ) -> Result<StepOutcome> {
        observations.clear();
        self.check_observation_indices(observation_space)?;
        let spaces = &self.observation_spaces;
        let session = self
            .sessions
            .get_mut(&session_id)
            .ok_or_else(|| Error::session_not_found(format!("session {session_id} does not exist")))?;
        let mut outcome = StepOutcome { action_had_no_effect: true, ..Default::default() };
        for action in actions {
            let o = session.apply_action(action).map_err(|e| session_error(e, "apply action"))?;
            outcome.action_had_no_effect &= o.action_had_no_effect;
            if o.new_action_space.is_some() {
                outcome.new_action_space = o.new_action_space;
            }
            if o.end_of_session {
                outcome.end_of_session = true;
                break;
            }
        }
        observe_into(session.as_mut(), spaces, observation_space, observations)?;
        Ok(outcome)
    }

    pub fn step(&mut self, request: &StepRequest) -> Result<StepReply> {
        let mut observation = Vec::with_capacity(request.observation_space.len());
        let o = self.step_into(
            request.session_id,
            &request.action,
            &request.observation_space,
            &mut observation,
        )?;
        Ok(StepReply {
            end_of_session: o.end_of_session,
            action_had_no_effect: o.action_had_no_effect,
            new_action_space: o.new_action_space,
            observation,
        })
    }

    /// Marks the actions the session knows to leave its current state
    /// unchanged (see [`CompilationSession::known_no_effect`]).
    pub fn known_no_effect(&mut self, session_id: SessionId, no_effect: &mut [bool]) -> Result<()> {
        self.session(session_id)?.known_no_effect(no_effect);
        Ok(())
    }

    /// Adds benchmarks; one with the URI of an earlier one replaces it.
    /// Either all are added or, if a URI is malformed, none.
    pub fn add_benchmark(&mut self, request: AddBenchmarkRequest) -> Result<AddBenchmarkReply> {
        // All are checked before any is added: a refused request changes nothing.
        for b in &request.benchmark {
            BenchmarkUri::parse(&b.uri)?;
            self.backend.check_benchmark(b)?;
        }
        for b in request.benchmark {
            self.benchmarks.add(b)?;
        }
        Ok(AddBenchmarkReply {})
    }

    /// The URIs of the benchmarks added with AddBenchmark.
    pub fn added_benchmarks(&self) -> Vec<String> {
        self.benchmarks.uris()
    }

    /// One reply per parameter; an unknown key is a ValueError (the
    /// protocol's INVALID_ARGUMENT) and stops at that parameter.
    pub fn send_session_parameter(
        &mut self,
        request: &SendSessionParameterRequest,
    ) -> Result<SendSessionParameterReply> {
        let session = self.session(request.session_id)?;
        let mut reply = Vec::with_capacity(request.parameter.len());
        for p in &request.parameter {
            match session.handle_session_parameter(&p.key, &p.value).map_err(|e| session_error(e, &p.key))? {
                Some(r) => reply.push(r),
                None => return Err(Error::value(format!("unknown session parameter {:?}", p.key))),
            }
        }
        Ok(SendSessionParameterReply { reply })
    }

    /// Semantic validation of a session's program (an in-process extension
    /// of the protocol); see [`CompilationSession::validate`].
    pub fn validate_session(&mut self, session_id: SessionId) -> Result<Option<Vec<String>>> {
        self.session(session_id)?.validate().map_err(|e| session_error(e, "validate"))
    }

    /// Answers one RPC given by name with a protocol-shaped JSON request:
    /// the form the JavaScript layer uses.
    pub fn call_json(&mut self, method: &str, request: &Json) -> Result<Json> {
        // A request of the wrong shape is the protocol's INVALID_ARGUMENT,
        // whatever the JSON type at fault; one past a limit stays a LimitError.
        let parse_error = |e: Error| match e.kind() {
            ErrorKind::Limit => e.context(format!("{method} request")),
            _ => Error::value(format!("{method} request: {}", e.message())),
        };
        fn parse<T: Message>(j: &Json, on_error: impl Fn(Error) -> Error) -> Result<T> {
            T::from_json(j).map_err(on_error)
        }
        Ok(match method {
            "GetVersion" => {
                let _: GetVersionRequest = parse(request, parse_error)?;
                self.get_version().to_json()
            }
            "GetSpaces" => {
                let _: GetSpacesRequest = parse(request, parse_error)?;
                self.get_spaces().to_json()
            }
            "StartSession" => self.start_session(&parse(request, parse_error)?)?.to_json(),
            "ForkSession" => {
                let r: ForkSessionRequest = parse(request, parse_error)?;
                ForkSessionReply { session_id: self.fork_session(r.session_id)? }.to_json()
            }
            "EndSession" => {
                let r: EndSessionRequest = parse(request, parse_error)?;
                EndSessionReply { remaining_sessions: self.end_session(r.session_id)? }.to_json()
            }
            "Step" => self.step(&parse(request, parse_error)?)?.to_json(),
            "AddBenchmark" => self.add_benchmark(parse(request, parse_error)?)?.to_json(),
            "SendSessionParameter" => self.send_session_parameter(&parse(request, parse_error)?)?.to_json(),
            other => {
                return Err(Error::lookup(format!(
                    "unknown RPC {other:?}: the methods are {}",
                    METHODS.join(", ")
                )))
            }
        })
    }
}
