"""Bad input from Python: a typed exception named as the JS error is, never a
crash, and the environment keeps working after it."""

import numpy as np
import pytest

import compgym


def deep(n):
    x = []
    for _ in range(n):
        x = [x]
    return x


BAD_MAKE = [
    (("nope-v0",), {}, LookupError),
    ((3,), {}, TypeError),
    (("bril-v0",), {"bogus": 1}, TypeError),
    (("bril-v0",), {"observation_space": "Nope"}, LookupError),
    (("bril-v0",), {"reward_space": 5}, TypeError),
    (("bril-v0",), {"dataset": "benchmark://nope"}, LookupError),
    (("bril-v0",), {"render_mode": "human"}, ValueError),
    (("bril-v0",), {"max_episode_steps": -1}, TypeError),
    (("bril-v0",), {"benchmark": "not a uri"}, ValueError),
]


@pytest.mark.parametrize("args,kwargs,error", BAD_MAKE)
def test_bad_make_arguments_raise_typed_errors(args, kwargs, error):
    with pytest.raises(error):
        env = compgym.make(*args, **kwargs)
        env.reset()


BAD_ACTIONS = [
    (99, ValueError),
    (-1, ValueError),
    (2**80, OverflowError),
    ("nope", LookupError),
    ("-dce -lvn", ValueError),
    (1.5, ValueError),
    (np.zeros((3, 3)), ValueError),
    (object(), TypeError),
    ({1: 2}, TypeError),
    (deep(100), ValueError),
    ([[[[]]]], ValueError),
]


@pytest.mark.parametrize("action,error", BAD_ACTIONS, ids=lambda x: type(x).__name__)
def test_bad_actions_raise_and_the_environment_goes_on(action, error):
    env = compgym.make("bril-ic-v0")
    env.reset(seed=1)
    with pytest.raises(error):
        env.step(action)
    _, _, terminated, _, _ = env.step("-dce")
    assert not terminated and env.commandline() == "-dce"


def test_errors_are_named_as_the_js_errors():
    env = compgym.make("bril-v0")
    with pytest.raises(compgym.SessionNotFound) as e:
        env.step(0)
    assert isinstance(e.value, compgym.ServiceError) and isinstance(e.value, RuntimeError)
    with pytest.raises(compgym.BenchmarkInitError):
        env.reset(options={"benchmark": "benchmark://suite-v0/nope"})
    with pytest.raises(compgym.ParseError):
        compgym._core.Space.from_json("{")
    with pytest.raises(TypeError):
        env.reset(options={"bogus": 1})
    with pytest.raises(ValueError):
        compgym.CompilerEnvState.from_csv('a,b,c,"d')
    with pytest.raises(LookupError):
        env.observation["Nope"]
    with pytest.raises(LookupError):
        env.reward["Nope"]


@pytest.mark.parametrize("seed,error", [(-1, ValueError), (2**70, OverflowError), ("1", TypeError), (1.5, TypeError)])
def test_bad_seeds(seed, error):
    env = compgym.make("bril-v0")
    with pytest.raises(error):
        env.reset(seed=seed)
    env.reset(seed=1)


def test_a_failed_reset_keeps_the_episode():
    env = compgym.make("bril-ic-v0", dataset="benchmark://suite-v0")
    _, info = env.reset(seed=5)
    env.step("-dce")
    with pytest.raises(ValueError):
        env.reset(seed=6, options={"benchmark": "not a uri"})
    assert env.benchmark == info["benchmark"] and env.np_random_seed == 5
    env.step("-lvn")
    assert env.commandline() == "-dce -lvn"


def test_closed_environments_raise_and_reopen():
    env = compgym.make("bril-v0")
    env.reset()
    env.close()
    env.close()
    with pytest.raises(compgym.SessionNotFound):
        env.step(0)
    env.reset()
    env.step(0)


def test_hostile_multistep_and_states():
    env = compgym.make("bril-ic-v0")
    env.reset()
    with pytest.raises(LookupError):
        env.multistep([1, 2, "x"])
    with pytest.raises(LookupError):
        env.multistep([1], observation_spaces=["Nope"])
    with pytest.raises(TypeError):
        env.multistep(5)
    with pytest.raises(LookupError):
        env.apply(compgym.CompilerEnvState("benchmark://suite-v0/ackermann", "-nope"))
    env.step(0)


def test_another_thread_gets_an_exception_not_a_panic():
    import threading

    env = compgym.make("bril-v0")
    env.reset()
    caught = []

    def use_and_drop(holder):
        try:
            holder[0].step(0)
        except BaseException as e:  # noqa: BLE001 - a panic would be a BaseException
            caught.append(e)
        holder.clear()  # the last reference dies on this thread

    other = compgym.make("bril-v0")
    thread = threading.Thread(target=use_and_drop, args=([env._core],))
    thread.start()
    thread.join()
    assert len(caught) == 1 and isinstance(caught[0], compgym.ServiceError), caught
    env.step(1)
    holder = [other._core]
    del other
    thread = threading.Thread(target=use_and_drop, args=(holder,))
    thread.start()
    thread.join()
    # Dropped on a thread that does not own it: leaked, not dropped there, and no crash.
    assert len(caught) == 2 and isinstance(caught[1], compgym.ServiceError)
    assert holder == []
