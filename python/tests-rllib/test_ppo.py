"""RLlib's PPO on a compgym environment (``make test-rllib``; needs RLlib and
torch, so not in ``make test``): the masked observations are what RLlib's
module reads, and a short seeded training, budgeted in iterations, raises the
mean return."""

import gymnasium
import numpy as np
import pytest
import ray

from compgym.rllib import ActionMasked, make_env, train


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_masked_observations_carry_the_info_mask():
    env = make_env({"benchmark": "benchmark://suite-v0/histogram", "episode_length": 40})
    assert isinstance(env, ActionMasked)
    observation, info = env.reset(seed=1)
    masked_out = 0
    for action in [*range(env.action_space.n), 0, 1, 2, 3, 4, 5, 6, 7]:
        assert env.observation_space.contains(observation)
        assert observation["observations"].dtype == np.float32
        assert observation["action_mask"].tolist() == info["action_mask"].astype(np.float32).tolist()
        observation, _, terminated, truncated, info = env.step(action)
        if info["action_had_no_effect"] and not info.get("fixed_point"):
            assert observation["action_mask"][action] == 0, "a pass that changed nothing is masked out"
            masked_out += 1
        if terminated or truncated:
            break
    assert truncated and masked_out > 0, "Gymnasium's TimeLimit ends the episode; some passes were no-ops"
    with pytest.raises(TypeError, match="Discrete"):
        ActionMasked(gymnasium.make("Pendulum-v1"))


def test_ppo_raises_the_mean_return_on_one_program(cluster):
    # One program, so the curve measures learning, not which programs were
    # drawn; 6 iterations of 400 steps (seed 0 goes from about -5, passes
    # that grow the program, to above -2; 1.0 would match -Oz).
    curve = train(6, seed=0, benchmark="benchmark://suite-v0/histogram", episode_length=10, batch=400, minibatch=100)
    returns = [p["mean_return"] for p in curve]
    assert [p["iteration"] for p in curve] == list(range(1, 7))
    assert curve[-1]["env_steps"] >= 6 * 400
    assert max(returns[-2:]) > returns[0] + 1.0, returns


def test_without_the_mask_rllibs_default_module_trains(cluster):
    curve = train(1, seed=0, mask=False, benchmark="benchmark://suite-v0/histogram", episode_length=10, batch=200)
    assert len(curve) == 1 and curve[0]["env_steps"] >= 200 and curve[0]["episodes"] >= 1
