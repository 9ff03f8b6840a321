"""RLlib's PPO on a compgym environment, sampled by RLlib's env runners.
Needs RLlib and torch (``make test-rllib`` installs them into ``.venv/rllib``);
``import compgym`` never imports this module.

* ``ActionMasked``: a Gymnasium wrapper giving ``{"observations",
  "action_mask"}``, the observation RLlib's action-masking module reads: the
  environment's observation beside its info's ``action_mask`` (1 for a pass
  that may change the program), so the policy never spends a step on a pass
  that cannot.
* ``ppo_config(...)``: the ``PPOConfig`` (env runners, batch sizes, the
  masking module, the seed); ``train(iterations, ...)`` builds it, trains, and
  returns the learning curve.

The default environment is ``compgym/bril-autophase-ic-v0`` with ML-ready
observations (float32 Autophase features, counts log-scaled) and the
``IrInstructionCountOz`` reward, so an episode's return is the share of
``-Oz``'s cut the episode's passes made: 1.0 matches ``-Oz``. Each reset draws
a program of ``dataset`` with the environment's generator.

    .venv/rllib/bin/python -m compgym.rllib --iterations 20 --seed 0
"""

from __future__ import annotations

import gymnasium
import numpy as np

ENV_NAME = "compgym-masked"
ENV_ID = "compgym/bril-autophase-ic-v0"
DATASET = "benchmark://suite-v0"
EPISODE_LENGTH = 20


class ActionMasked(gymnasium.Wrapper):
    """Observations as ``{"observations": obs, "action_mask": mask}`` (the
    mask float32, as RLlib's module reads it), from the info's
    ``action_mask``; a Discrete action space only."""

    def __init__(self, env: gymnasium.Env):
        super().__init__(env)
        if not isinstance(env.action_space, gymnasium.spaces.Discrete):
            raise TypeError(f"action masking needs a Discrete action space, not {env.action_space}")
        self._n = int(env.action_space.n)
        self.observation_space = gymnasium.spaces.Dict(
            {
                "action_mask": gymnasium.spaces.Box(0.0, 1.0, (self._n,), np.float32),
                "observations": env.observation_space,
            }
        )

    def _masked(self, observation, info: dict) -> dict:
        mask = info.get("action_mask")
        # A failed step may end the episode without a mask: every action then.
        mask = np.ones(self._n, np.float32) if mask is None else np.asarray(mask, np.float32)
        return {"action_mask": mask, "observations": observation}

    def reset(self, **kwargs):
        observation, info = self.env.reset(**kwargs)
        return self._masked(observation, info), info

    def step(self, action):
        observation, reward, terminated, truncated, info = self.env.step(action)
        return self._masked(observation, info), reward, terminated, truncated, info


def make_env(config: dict) -> gymnasium.Env:
    """The environment an env runner steps: ``config`` holds ``env_id``,
    ``dataset`` (or ``benchmark``), ``episode_length`` and ``mask``."""
    import compgym  # noqa: F401  (registers the ids in the env runner's process)

    options = {"ml_ready": True, "max_episode_steps": config.get("episode_length", EPISODE_LENGTH)}
    if config.get("benchmark"):
        options["benchmark"] = config["benchmark"]
    else:
        options["dataset"] = config.get("dataset", DATASET)
    env = gymnasium.make(config.get("env_id", ENV_ID), **options)
    return ActionMasked(env) if config.get("mask", True) else env


def ppo_config(
    *,
    env_id: str = ENV_ID,
    dataset: str = DATASET,
    benchmark: str | None = None,
    episode_length: int = EPISODE_LENGTH,
    mask: bool = True,
    seed: int = 0,
    env_runners: int = 1,
    batch: int = 1000,
    minibatch: int | None = None,
    epochs: int = 6,
    lr: float = 1e-3,
    hidden: tuple[int, ...] = (64, 64),
):
    """PPO on ``env_id`` (its programs from ``dataset``, or the one
    ``benchmark``), ``batch`` steps an iteration sampled by ``env_runners``
    remote env runners (0: in the driver), masked by the info's action mask
    unless ``mask`` is False, in minibatches of ``minibatch`` (default: 250,
    or the whole batch if smaller). ``seed`` seeds torch and the env
    runners' environments."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env

    register_env(ENV_NAME, make_env)
    module = {"fcnet_hiddens": list(hidden), "head_fcnet_hiddens": list(hidden)}
    if mask:
        from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

        spec = RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=module)
    else:
        spec = RLModuleSpec(model_config=module)
    env_config = {
        "env_id": env_id,
        "dataset": dataset,
        "benchmark": benchmark,
        "episode_length": episode_length,
        "mask": mask,
    }
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config=env_config)
        .env_runners(num_env_runners=env_runners, num_envs_per_env_runner=1, num_cpus_per_env_runner=1)
        .training(
            train_batch_size_per_learner=batch,
            minibatch_size=minibatch or min(250, batch),
            num_epochs=epochs,
            lr=lr,
            gamma=1.0,  # the return is the program's cut: no step is worth less for coming later
        )
        .rl_module(rl_module_spec=spec)
        # The mean return over about one iteration's episodes, not RLlib's
        # default 100, so the curve shows each iteration's policy.
        .reporting(metrics_num_episodes_for_smoothing=max(1, batch // episode_length))
        .debugging(seed=seed)
    )


def train(iterations: int, on_iteration=None, **options) -> list[dict]:
    """Builds ``ppo_config(**options)`` and trains ``iterations`` times: per
    iteration its ``iteration``, ``env_steps`` (sampled so far), ``episodes``
    (ended in it) and ``mean_return`` (of RLlib's recent episodes), each also
    passed to ``on_iteration`` as it comes."""
    from ray.rllib.utils.metrics import (
        ENV_RUNNER_RESULTS,
        EPISODE_RETURN_MEAN,
        NUM_ENV_STEPS_SAMPLED_LIFETIME,
        NUM_EPISODES,
    )

    algo = ppo_config(**options).build_algo()
    curve = []
    try:
        for i in range(1, iterations + 1):
            result = algo.train()
            runners = result[ENV_RUNNER_RESULTS]
            steps = result.get(NUM_ENV_STEPS_SAMPLED_LIFETIME, runners.get(NUM_ENV_STEPS_SAMPLED_LIFETIME, 0))
            point = {
                "iteration": i,
                "env_steps": int(steps),
                "episodes": int(runners.get(NUM_EPISODES, 0)),
                "mean_return": float(runners.get(EPISODE_RETURN_MEAN, float("nan"))),
            }
            curve.append(point)
            if on_iteration is not None:
                on_iteration(point)
    finally:
        algo.stop()
    return curve


def main(argv: list[str] | None = None) -> int:
    """Trains and prints the learning curve, one line per iteration."""
    import argparse

    import ray

    p = argparse.ArgumentParser(prog="python -m compgym.rllib", description=main.__doc__)
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--env-runners", type=int, default=1)
    p.add_argument("--batch", type=int, default=1000)
    p.add_argument("--dataset", default=DATASET)
    p.add_argument("--benchmark")
    p.add_argument("--episode-length", type=int, default=EPISODE_LENGTH)
    p.add_argument("--no-mask", action="store_true")
    args = p.parse_args(argv)
    ray.init(num_cpus=max(2, args.env_runners + 1), include_dashboard=False, log_to_driver=False)
    try:
        options = dict(
            seed=args.seed,
            env_runners=args.env_runners,
            batch=args.batch,
            dataset=args.dataset,
            benchmark=args.benchmark,
            episode_length=args.episode_length,
            mask=not args.no_mask,
        )
        print("| iteration | env steps | episodes | mean return (1.0 = -Oz) |")
        print("|---:|---:|---:|---:|")

        def line(p: dict) -> None:
            print(f"| {p['iteration']} | {p['env_steps']:,} | {p['episodes']} | {p['mean_return']:.3f} |", flush=True)

        train(args.iterations, on_iteration=line, **options)
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
