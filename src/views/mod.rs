//! Observation and reward views.
