"""Gymnasium's face under Gymnasium's own tools: registration, spaces,
check_env on every environment, the vector environments, pickling, and the
seeded trace every face replays."""

import json
import pickle
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

import compgym
from conftest import ROOT

IDS = compgym.registered_ids()
SUITE = "benchmark://suite-v0"
# The one warning check_env gives: compiler environments render text, at no frame rate.
KNOWN_WARNINGS = ("No render fps was declared",)


def test_every_core_id_is_registered_with_gymnasium():
    assert "bril-autophase-ic-v0" in IDS and len(IDS) >= 5
    for env_id in IDS:
        assert f"compgym/{env_id}" in gymnasium.registry
        env = gymnasium.make(f"compgym/{env_id}")
        assert isinstance(env.unwrapped, compgym.CompilerGymEnv)
        assert env.spec.id == f"compgym/{env_id}"
        env.close()


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("render_mode", [None, "ansi"])
def test_check_env_passes(env_id, render_mode):
    env = gymnasium.make(f"compgym/{env_id}", render_mode=render_mode, dataset=SUITE)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=render_mode is None)
    unexpected = [str(w.message) for w in caught if not any(k in str(w.message) for k in KNOWN_WARNINGS)]
    assert unexpected == []


def test_spaces_are_gymnasiums():
    env = gymnasium.make("compgym/bril-autophase-ic-v0")
    assert type(env.observation_space) is spaces.Box
    assert env.observation_space.dtype == np.int64 and env.observation_space.shape == (60,)
    assert isinstance(env.action_space, spaces.Discrete) and env.action_space.n == 32
    text = gymnasium.make("compgym/bril-v0")
    assert isinstance(text.observation_space, compgym.CoreSpace)
    observation, _ = text.reset(seed=0)
    assert isinstance(observation, str) and observation in text.observation_space
    assert 3 not in text.observation_space


def test_observations_of_every_space_are_in_their_spaces():
    env = compgym.make("bril-v0")
    env.reset(seed=3)
    for obs_id, space in env.observation.spaces.items():
        assert space.contains(env.observation[obs_id]), obs_id


def test_the_seeded_trace_is_the_same_bits_as_the_js_and_native_faces():
    trace = json.loads((ROOT / "tests/data/gym_seeded_trace.json").read_text())
    env = gymnasium.make(f"compgym/{trace['id']}", dataset=trace["dataset"])
    observation, info = env.reset(seed=trace["seed"])
    assert info["benchmark"] == trace["benchmark"]
    assert observation.tolist() == trace["observation"]
    actions = [int(env.action_space.sample()) for _ in trace["actions"]]
    assert actions == trace["actions"]
    steps = [list(env.step(a)[1:4]) for a in actions]
    assert steps == trace["steps"]
    assert [env.reset()[1]["benchmark"] for _ in range(3)] == trace["unseeded_benchmarks"]
    _, info7 = env.reset(seed=7)
    assert info7["benchmark"] == trace["seed7"]["benchmark"]
    assert [int(env.action_space.sample()) for _ in range(4)] == trace["seed7"]["actions"]


def test_infos_carry_the_action_mask():
    env = gymnasium.make("compgym/bril-ic-v0")
    _, info = env.reset(seed=1)
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
    assert set(np.unique(mask)) <= {0, 1}
    _, _, _, _, info = env.step("-dce")
    assert {"action_mask", "action_had_no_effect", "new_action_space"} <= set(info)
    # An action that did nothing is masked out until the program changes.
    if info["action_had_no_effect"]:
        assert info["action_mask"][env.unwrapped.commandline_to_actions("-dce")[0]] == 0
    # A masked sample draws only allowed actions.
    for _ in range(20):
        assert info["action_mask"][env.action_space.sample(mask=info["action_mask"])] == 1


def test_ml_ready_observations_are_log_scaled_float32():
    raw = gymnasium.make("compgym/bril-autophase-ic-v0")
    ready = gymnasium.make("compgym/bril-autophase-ic-v0", ml_ready=True)
    assert ready.observation_space.dtype == np.float32
    x, _ = raw.reset(seed=5)
    y, _ = ready.reset(seed=5)
    assert y.dtype == np.float32 and y in ready.observation_space
    np.testing.assert_array_equal(y, np.log1p(x.astype(np.float64)).astype(np.float32))
    with pytest.raises(TypeError):
        gymnasium.make("compgym/bril-v0", ml_ready=True)  # text is not an array
    with pytest.raises(TypeError):
        gymnasium.make("compgym/bril-autophase-ic-v0", ml_ready="yes")


def test_environments_pickle_as_the_arguments_that_made_them():
    env = gymnasium.make("compgym/bril-autophase-ic-v0", dataset=SUITE, ml_ready=True)
    copy = pickle.loads(pickle.dumps(env.unwrapped))
    a, _ = env.reset(seed=11)
    b, _ = copy.reset(seed=11)
    np.testing.assert_array_equal(a, b)
    assert pickle.loads(pickle.dumps(env.action_space)) == env.action_space


def _rollout(vector, seed):
    observations, rewards = [], []
    o, _ = vector.reset(seed=seed)
    observations.append(o)
    vector.action_space.seed(seed)
    for _ in range(4):
        o, r, _, _, _ = vector.step(vector.action_space.sample())
        observations.append(o)
        rewards.append(r)
    vector.close()
    return np.stack(observations), np.stack(rewards)


def test_sync_and_async_vector_envs_agree():
    make = lambda mode, kwargs: gymnasium.make_vec(  # noqa: E731
        "compgym/bril-autophase-ic-v0",
        num_envs=2,
        vectorization_mode=mode,
        vector_kwargs=kwargs,
        dataset=SUITE,
    )
    sync = _rollout(make("sync", {}), seed=3)
    # Spawned processes rebuild the environments from their spec.
    spawned = _rollout(make("async", {"context": "spawn"}), seed=3)
    np.testing.assert_array_equal(sync[0], spawned[0])
    np.testing.assert_array_equal(sync[1], spawned[1])
    assert sync[0].shape == (5, 2, 60)


def test_wrappers_compose():
    env = gymnasium.make("compgym/bril-autophase-ic-v0", max_episode_steps=3)
    env = gymnasium.wrappers.FlattenObservation(env)
    env.reset(seed=0)
    truncated = False
    for _ in range(3):
        _, _, _, truncated, _ = env.step(env.action_space.sample())
    assert truncated
