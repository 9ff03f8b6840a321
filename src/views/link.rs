//! The link from an environment and its views to their session: the shared
//! service and the id of the session currently in use (none before reset).
//! Clones of a link share the session id, so an environment that moves to a
//! new session (reset, fork) moves its views with it.

use crate::error::{Error, Result};
use crate::service::{Service, SessionId, StepOutcome};
use crate::value::Value;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// A service shared by an environment and its forks.
pub type SharedService = Rc<RefCell<Service>>;

#[derive(Clone)]
pub struct SessionLink {
    service: SharedService,
    session_id: Rc<Cell<Option<SessionId>>>,
}

impl SessionLink {
    pub fn new(service: SharedService) -> SessionLink {
        SessionLink { service, session_id: Rc::default() }
    }

    /// A link to the same service with a session id of its own (none yet),
    /// for a fork.
    pub fn detached(&self) -> SessionLink {
        SessionLink::new(self.service.clone())
    }

    pub fn service(&self) -> &SharedService {
        &self.service
    }
    pub fn session_id(&self) -> Option<SessionId> {
        self.session_id.get()
    }
    /// Sets the session of this link and of every clone of it.
    pub fn set_session_id(&self, id: Option<SessionId>) {
        self.session_id.set(id);
    }

    /// The session id, or SessionNotFound before reset.
    pub fn require_session(&self) -> Result<SessionId> {
        self.session_id().ok_or_else(|| Error::session_not_found("no session: call reset() first"))
    }

    /// Runs `f` on the service. Re-entering the service from inside a call
    /// (say, from a reward written in JavaScript) is an error, not a panic.
    pub fn with_service<R>(&self, f: impl FnOnce(&mut Service) -> Result<R>) -> Result<R> {
        let mut service = self
            .service
            .try_borrow_mut()
            .map_err(|_| Error::service("the service is busy (re-entrant call)"))?;
        f(&mut service)
    }

    /// A Step on the current session.
    pub fn step_into(
        &self,
        actions: &[Value],
        observation_space: &[usize],
        observations: &mut Vec<Value>,
    ) -> Result<StepOutcome> {
        let id = self.require_session()?;
        self.with_service(|s| s.step_into(id, actions, observation_space, observations))
    }
}
