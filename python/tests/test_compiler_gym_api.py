"""CompilerGym's API on env.unwrapped, under CompilerGym's names."""

import numpy as np
import pytest

import compgym


@pytest.fixture
def env():
    env = compgym.make("bril-autophase-ic-v0", benchmark="benchmark://suite-v0/ackermann")
    env.reset()
    yield env
    env.close()


def test_views_by_name(env):
    autophase = env.observation["Autophase"]
    assert autophase.dtype == np.int64 and autophase.shape == (60,)
    assert isinstance(env.observation["Ir"], str)
    assert {"Autophase", "Ir", "InstCount", "IrInstructionCount"} <= set(env.observation.keys())
    env.step("-dce")
    assert isinstance(env.reward["IrInstructionCount"], float)
    assert "IrInstructionCountOz" in env.reward.keys()


def test_state_commandline_and_csv_round_trip(env):
    for flag in ["-dce", "-lvn", "-dce"]:
        env.step(flag)
    assert env.commandline() == "-dce -lvn -dce"
    assert env.actions == env.commandline_to_actions("-dce -lvn -dce")
    state = env.state
    assert state.benchmark == "benchmark://suite-v0/ackermann"
    assert compgym.CompilerEnvState.from_csv(state.to_csv()) == state
    text = compgym.write_states_csv([state, state])
    assert compgym.read_states_csv(text) == [state, state]


def test_validate_replays_the_episode(env):
    env.multistep(env.commandline_to_actions("-lvn -dce -simplify-cfg"))
    result = env.validate()
    assert result["okay"], result["errors"]
    assert result["benchmark_semantics_validated"]
    assert result["state"] == env.state
    fresh = compgym.make("bril-autophase-ic-v0")
    fresh.apply(env.state)
    assert fresh.commandline() == env.commandline()
    assert (fresh.observation["Autophase"] == env.observation["Autophase"]).all()


def test_fork_is_independent_and_in_the_same_state(env):
    env.step("-lvn")
    fork = env.fork()
    assert fork.commandline() == env.commandline()
    fork.step("-dce")
    assert fork.commandline() != env.commandline()
    assert env.actions == env.commandline_to_actions("-lvn")
    # The fork's action space continues the same stream.
    env.reset(seed=9)
    fork = env.fork()
    assert [int(fork.action_space.sample()) for _ in range(5)] == [int(env.action_space.sample()) for _ in range(5)]


def test_multistep_with_explicit_spaces(env):
    observations, rewards, terminated, truncated, info = env.multistep(
        [0, 1, 2], observation_spaces=["Autophase", "IrInstructionCount"], reward_spaces=["IrInstructionCount"]
    )
    assert len(observations) == 2 and len(rewards) == 1
    assert not terminated and not truncated and "action_had_no_effect" in info


def test_datasets_and_benchmarks(env):
    names = [d.name for d in env.datasets]
    assert "benchmark://suite-v0" in names
    suite = env.datasets["suite-v0"]
    uris = list(suite.benchmark_uris())
    assert len(uris) == len(suite) and "benchmark://suite-v0/ackermann" in uris
    env.benchmark = uris[1]
    env.reset()
    assert env.benchmark == uris[1]
    with pytest.raises(LookupError):
        env.datasets["nope-v0"]


def test_reward_and_observation_spaces_switch(env):
    env.reward_space = "IrInstructionCount"
    assert env.reward_space == "IrInstructionCount"
    env.set_observation_space("InstCount")
    observation, *_ = env.step("-dce")
    assert observation in env.observation_space
    env.reward_space = None
    assert env.step("-lvn")[1] == 0.0
