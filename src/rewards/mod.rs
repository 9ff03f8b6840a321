//! Rewards.
