"""Gymnasium's side of the wrapper trace (bench/gym-wrappers-trace.mjs runs
it): one deterministic environment through a stack of single-environment
wrappers, and two through vector wrappers, printed as one JSON object."""
import json
import numpy as np
import gymnasium as gym
from gymnasium import spaces
from gymnasium.wrappers import (TimeLimit, TimeAwareObservation, FrameStackObservation,
                                RescaleAction, ClipReward, Autoreset)
from gymnasium.vector import SyncVectorEnv
from gymnasium.wrappers.vector import NormalizeObservation, NormalizeReward, RecordEpisodeStatistics

class Line(gym.Env):
    metadata = {"render_modes": []}
    def __init__(self, speed=1.0):
        self.speed = speed
        self.observation_space = spaces.Box(-100, 100, (2,), np.float32)
        self.action_space = spaces.Box(-1, 1, (1,), np.float32)
    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.position, self.t = 0.0, 0
        return np.array([self.position, self.t], np.float32), {}
    def step(self, action):
        self.position += self.speed * float(action[0])
        self.t += 1
        obs = np.array([self.position, self.t], np.float32)
        return obs, float(self.position), bool(abs(self.position) >= 3), False, {}

def plain(x):
    if isinstance(x, np.ndarray) and x.dtype == np.bool_: return [bool(v) for v in x.ravel()]
    if isinstance(x, np.ndarray): return [float(v) for v in x.ravel()]
    if isinstance(x, (np.bool_, bool)): return bool(x)
    return float(x)

out = {}
env = ClipReward(RescaleAction(FrameStackObservation(TimeAwareObservation(TimeLimit(Line(), 6), normalize_time=True), 3, padding_type="zero"), 0.0, 2.0), -1.0, 2.0)
env = Autoreset(env)
trace = []
obs, _ = env.reset(seed=0)
trace.append(plain(obs))
for a in [1.7, 0.3, 2.0, 1.1, 0.9, 1.9, 0.2, 1.3, 0.05, 1.99]:
    obs, r, te, tr, _ = env.step(np.array([a], np.float32))
    trace.append([plain(obs), plain(r), plain(te), plain(tr)])
out["single"] = trace

envs = SyncVectorEnv([lambda: TimeLimit(Line(1.0), 4), lambda: TimeLimit(Line(0.5), 4)])
envs = NormalizeReward(NormalizeObservation(RecordEpisodeStatistics(envs)), gamma=0.9)
vtrace = []
obs, _ = envs.reset(seed=0)
vtrace.append(plain(obs))
for a, b in [(0.5, -1), (1, 1), (-0.25, 0.75), (1, 1), (0.1, 0.2), (-1, 0.5), (0.3, 0.3)]:
    obs, r, te, tr, info = envs.step(np.array([[a], [b]], np.float32))
    ep = info.get("episode")
    vtrace.append([plain(obs), plain(r), plain(te), plain(tr), None if ep is None else {k: plain(v) for k, v in ep.items() if k != "t"}])
out["vector"] = vtrace
print(json.dumps(out))
