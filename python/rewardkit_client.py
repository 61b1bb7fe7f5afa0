"""Trainer-side shims for a running `rewardkit serve`: standard library only.

- verl:     `compute_score_async` (the reward loop, verl >= 0.7), `compute_score` (one sample,
            sync) and `compute_score_batch` (the legacy batch manager), for
            `reward.custom_reward_function.path` / `.name` in the trainer config.
- TRL:      `async_reward_function(...)` returns an `async def` reward function, which
            GRPOTrainer runs concurrently; `RewardKitReward(...)` is the sync form.
- OpenRLHF: `reward_func(queries, prompts, labels)`, for `--reward.remote_url` pointing at this
            file (OpenRLHF's `.py` reward path); it calls the server's `/get_reward`.

verl and TRL call the native API (`POST /v1/rewards`). Configuration comes from
arguments or the environment:

    REWARDKIT_URL          server base URL (default http://127.0.0.1:8000)
    REWARDKIT_TOKEN        bearer token, when the server was started with --token
    REWARDKIT_TIMEOUT      seconds per HTTP attempt (default 180)
    REWARDKIT_RETRIES      attempts on 429/5xx/connection errors (default 5)
    REWARDKIT_ON_FAILED    verl only: what a failed sample returns, "raise" or a number
                           (default "raise"; TRL gets None, which it skips)
    REWARDKIT_BATCH_WINDOW_MS  verl's reward loop (`compute_score_async`): how long to gather the
                           samples awaited together into one request (default 5)
    REWARDKIT_MAX_BATCH    ... and the most samples in one such request (default 256)

A sample the server could not score is never turned into a silent 0: TRL receives
None (which GRPOTrainer skips) and verl either raises or, with REWARDKIT_ON_FAILED set
to a number, gets that number with `rewardkit_failed = 1.0` among the logged extras.
OpenRLHF gets the server's `--failed-reward` with `extra_logs.failed = 1`.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
import urllib.error
import urllib.request
import uuid
import weakref
from typing import Any, Callable, Coroutine, Iterable, Optional, Sequence

__all__ = [
    "RewardKitClient",
    "RewardKitError",
    "compute_score",
    "compute_score_async",
    "compute_score_batch",
    "RewardKitReward",
    "async_reward_function",
    "reward_func",
]

_RETRYABLE_STATUS = {408, 409, 429, 500, 502, 503, 504}


class RewardKitError(RuntimeError):
    """The server refused a request, or a sample could not be scored."""


class RewardKitClient:
    """A small client of the native API with retries that honour Retry-After."""

    def __init__(
        self,
        url: Optional[str] = None,
        token: Optional[str] = None,
        timeout: Optional[float] = None,
        retries: Optional[int] = None,
    ) -> None:
        self.url = (url or os.environ.get("REWARDKIT_URL") or "http://127.0.0.1:8000").rstrip("/")
        self.token = token if token is not None else os.environ.get("REWARDKIT_TOKEN")
        self.timeout = float(timeout if timeout is not None else os.environ.get("REWARDKIT_TIMEOUT", 180))
        self.retries = int(retries if retries is not None else os.environ.get("REWARDKIT_RETRIES", 5))

    def rewards(self, samples: Sequence[dict]) -> list[dict]:
        """Scores samples; returns one RewardResult dict per sample, in order."""
        return self.score(samples)[0]

    def score(self, samples: Sequence[dict]) -> tuple[list[dict], list[str]]:
        """Scores samples; returns their RewardResult dicts in order and every component name the
        server's spec can produce (a result holds only its own route's)."""
        body = self.post("/v1/rewards", {"samples": list(samples)})
        results = body.get("results")
        if not isinstance(results, list) or len(results) != len(samples):
            raise RewardKitError(f"{self.url}/v1/rewards answered {len(results or [])} results for {len(samples)} samples")
        components = body.get("components")
        if not isinstance(components, list):
            raise RewardKitError(f"{self.url}/v1/rewards answered no component list: is the server older than this shim?")
        return results, [str(name) for name in components]

    def needs_groups(self) -> Optional[bool]:
        """Whether the server's spec compares the samples of a group (its `/healthz` says so);
        None from a server too old to say."""
        answer = self.request("GET", "/healthz").get("needs_groups")
        return answer if isinstance(answer, bool) else None

    def post(self, path: str, payload: dict) -> dict:
        return self.request("POST", path, payload)

    def request(self, method: str, path: str, payload: Optional[dict] = None) -> dict:
        data = None if payload is None else json.dumps(payload).encode("utf-8")
        headers = {"accept": "application/json"}
        if data is not None:
            headers["content-type"] = "application/json"
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        last_error: Optional[str] = None
        for attempt in range(max(1, self.retries)):
            request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return json.loads(response.read().decode("utf-8"))
            except urllib.error.HTTPError as error:
                detail = error.read().decode("utf-8", "replace")
                last_error = f"HTTP {error.code}: {detail}"
                if error.code not in _RETRYABLE_STATUS:
                    raise RewardKitError(f"{self.url}{path} refused the request: {last_error}") from None
                delay = _retry_after(error.headers.get("retry-after"), attempt)
            except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
                last_error = str(getattr(error, "reason", error))
                delay = _backoff(attempt)
            if attempt + 1 < self.retries:
                time.sleep(delay)
        raise RewardKitError(f"{self.url}{path} failed after {self.retries} attempts: {last_error}")

    def next_id(self, prefix: str) -> str:
        # A random id rather than a counter: the client stays picklable (TRL's async GRPO pickles
        # reward functions into a spawned process) and ids stay unique across processes.
        return f"{prefix}-{uuid.uuid4().hex}"


def _backoff(attempt: int) -> float:
    return min(30.0, 0.5 * 2**attempt) * (0.5 + random.random() / 2)


def _retry_after(header: Optional[str], attempt: int) -> float:
    try:
        return max(0.0, float(header)) if header is not None else _backoff(attempt)
    except ValueError:
        return _backoff(attempt)


# ── verl ──────────────────────────────────────────────────────────────────────────────────────

_default_client: Optional[RewardKitClient] = None


def _client() -> RewardKitClient:
    global _default_client
    if _default_client is None:
        _default_client = RewardKitClient()
    return _default_client


def _plain(value: Any) -> Any:
    """verl reads parquet through numpy: list columns arrive as arrays, numbers as numpy scalars."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _reference(ground_truth: Any) -> Any:
    """A ground truth as the server reads references: text, a list of golds, a search-R1
    `{"target": [...]}` as its targets, and any other object (a code row's tests, which verl's
    code scorers also take as a dict) as its JSON text, never Python's repr of it."""
    ground_truth = _plain(ground_truth)
    if ground_truth is None:
        return None
    if isinstance(ground_truth, dict):
        if "target" in ground_truth:
            return _reference(ground_truth["target"])
        return json.dumps(ground_truth)
    if isinstance(ground_truth, list):
        return [str(g) for g in ground_truth]
    return str(ground_truth)


def _verl_sample(sample_id: str, data_source: Any, solution_str: str, ground_truth: Any, extra_info: Any) -> dict:
    sample: dict = {"id": sample_id, "response": solution_str, "metadata": {}}
    reference = _reference(ground_truth)
    if reference is not None:
        sample["reference"] = reference
    if data_source is not None:
        sample["data_source"] = str(data_source)
    if isinstance(extra_info, dict):
        metadata, unsent = {}, []
        for key, value in extra_info.items():
            value = _plain(value)
            if _json_safe(value):
                metadata[str(key)] = value
            else:
                unsent.append(str(key))
        if unsent:
            # Said, not silently dropped: the stored sample shows which fields did not travel.
            metadata["rewardkit_unsent_extra_info"] = unsent
        sample["metadata"] = metadata
        prompt = metadata.get("prompt")
        if isinstance(prompt, (str, list)):
            sample["prompt"] = _prompt(prompt)
    return sample


def _json_safe(value: Any) -> bool:
    try:
        json.dumps(value)
        return True
    except (TypeError, ValueError):
        return False


def _verl_score(result: dict, components: Sequence[str]) -> dict:
    """One sample's `{"score", **extras}` with the same keys for every sample: verl's reward loop
    takes the extras' keys from the first sample of a batch and its trainer stacks each key into
    one array per batch, so a failed sample, or one routed to other sources, still carries every
    component (0.0 where it has none) and `rewardkit_failed`."""
    scores = result.get("components") or {}
    extras = {f"rewardkit/{name}": float(scores.get(name) or 0.0) for name in components}
    if result.get("status") == "ok" and isinstance(result.get("reward"), (int, float)):
        return {"score": float(result["reward"]), "rewardkit_failed": 0.0, **extras}
    reason = "; ".join(result.get("errors") or []) or "no reward"
    policy = os.environ.get("REWARDKIT_ON_FAILED", "raise")
    if policy == "raise":
        raise RewardKitError(f"sample {result.get('id')} could not be scored: {reason}")
    return {"score": float(policy), "rewardkit_failed": 1.0, **extras}


def _score_verl_samples(client: RewardKitClient, samples: list[dict]) -> list[dict]:
    results, components = client.score(samples)
    return [_verl_score(result, components) for result in results]


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs) -> dict:
    """verl's custom reward function: one sample -> {"score": float, **extras}."""
    client = _client()
    sample = _verl_sample(client.next_id("verl"), data_source, solution_str, ground_truth, extra_info)
    return _score_verl_samples(client, [sample])[0]


class _Coalescer:
    """Gathers the samples awaited on one event loop within a short window into one request.
    verl's reward loop calls the reward function once per sample, all of a worker's samples at
    once: one request for them beats one request (and one thread) each."""

    def __init__(self, client: RewardKitClient, window_s: float, max_batch: int) -> None:
        self.client, self.window_s, self.max_batch = client, window_s, max_batch
        self.pending: list[tuple[dict, asyncio.Future]] = []
        self.timer: Optional[asyncio.TimerHandle] = None

    async def score(self, sample: dict) -> dict:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.pending.append((sample, future))
        if len(self.pending) >= self.max_batch:
            self.flush()
        elif self.timer is None:
            self.timer = loop.call_later(self.window_s, self.flush)
        return await future

    def flush(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        batch, self.pending, self.timer = self.pending, [], None
        if batch:
            asyncio.get_running_loop().create_task(self.send(batch))

    async def send(self, batch: list[tuple[dict, asyncio.Future]]) -> None:
        try:
            results, components = await asyncio.to_thread(self.client.score, [sample for sample, _ in batch])
        except Exception as error:  # the request failed: every sample in it fails with that reason
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        for (_, future), result in zip(batch, results):
            if future.done():
                continue
            try:
                future.set_result(_verl_score(result, components))
            except RewardKitError as error:  # REWARDKIT_ON_FAILED=raise fails that sample alone
                future.set_exception(error)


_coalescers: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Coalescer]" = weakref.WeakKeyDictionary()


def _coalescer() -> _Coalescer:
    loop = asyncio.get_running_loop()
    if loop not in _coalescers:
        window_ms = float(os.environ.get("REWARDKIT_BATCH_WINDOW_MS", 5))
        max_batch = int(os.environ.get("REWARDKIT_MAX_BATCH", 256))
        _coalescers[loop] = _Coalescer(_client(), window_ms / 1000, max(1, max_batch))
    return _coalescers[loop]


async def compute_score_async(data_source, solution_str, ground_truth, extra_info=None, **kwargs) -> dict:
    """verl's reward loop awaits `async def` reward functions on its event loop, one call per
    sample: the samples that arrive within REWARDKIT_BATCH_WINDOW_MS go out as one request."""
    coalescer = _coalescer()
    sample = _verl_sample(coalescer.client.next_id("verl"), data_source, solution_str, ground_truth, extra_info)
    return await coalescer.score(sample)


def compute_score_batch(data_sources, solution_strs, ground_truths, extra_infos=None, **kwargs) -> list[dict]:
    """verl's batch reward manager form: lists in, one result per sample out (one HTTP request)."""
    client = _client()
    infos = extra_infos if extra_infos is not None else [None] * len(solution_strs)
    samples = [
        _verl_sample(client.next_id("verl"), ds, sol, gt, info)
        for ds, sol, gt, info in zip(data_sources, solution_strs, ground_truths, infos)
    ]
    return _score_verl_samples(client, samples)


# ── TRL ───────────────────────────────────────────────────────────────────────────────────────


def _text_of(content: Any) -> str:
    """A message's text: a string, None (an assistant turn that only calls tools), or content parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    raise RewardKitError(f"cannot read message content of type {type(content).__name__}")


def _completion_text(completion: Any) -> str:
    """TRL passes plain strings, or for conversational data a list of messages: the assistant
    turns, and with tools the tool results between them. The response is the assistant text."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list):
        texts = [_text_of(m.get("content")) for m in completion if isinstance(m, dict) and m.get("role") == "assistant"]
        return "\n".join(t for t in texts if t)
    raise RewardKitError(f"cannot read a completion of type {type(completion).__name__}")


def _prompt(prompt: Any) -> Any:
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, list):
        return [
            {"role": m.get("role"), "content": _text_of(m.get("content"))}
            for m in prompt
            if isinstance(m, dict) and m.get("role") in ("system", "user", "assistant", "tool")
        ]
    return None


class RewardKitReward:
    """A TRL GRPOTrainer reward function (sync; see `async_reward_function` for the async form).
    `reference_column` names the dataset column with the gold answer (e.g. "answer",
    "solution"; None for a spec that needs none); `data_source_column` routes samples in the
    spec. A column named here that TRL does not pass is an error before any request, naming it.

    Groups: GRPOTrainer passes the completions of each prompt together, so by default
    (`group_by="prompt"`) the completions of one call that share a prompt are sent as one group,
    which specs that compare a group's rollouts (pairwise and group judges) need. `group_by` may
    instead name a dataset column holding a group id, or be None to send no groups; a spec that
    needs groups is then refused before any scoring request (the server's /healthz says so)."""

    def __init__(
        self,
        reference_column: Optional[str] = "answer",
        data_source_column: Optional[str] = None,
        name: str = "rewardkit",
        client: Optional[RewardKitClient] = None,
        group_by: Optional[str] = "prompt",
    ) -> None:
        self.reference_column = reference_column
        self.data_source_column = data_source_column
        self.group_by = group_by
        self.client = client or RewardKitClient()
        # TRL logs each reward function under its __name__.
        self.__name__ = name
        self._groups_checked = False

    def check_columns(self, columns: dict) -> None:
        """Every column this function reads must be among those TRL passed: a wrong name would
        otherwise leave every sample without a reference and every reward None."""
        wanted = [
            ("reference_column", self.reference_column),
            ("data_source_column", self.data_source_column),
            ("group_by", None if self.group_by == "prompt" else self.group_by),
        ]
        for argument, column in wanted:
            if column and column not in columns:
                passed = ", ".join(sorted(k for k in columns if k not in _TRL_ARGUMENTS)) or "none"
                raise RewardKitError(
                    f"{self.__name__}: {argument}={column!r} is not a column of the dataset "
                    f"(TRL passed the columns: {passed}); name one of them, or pass {argument}=None"
                )

    def check_groups(self) -> None:
        """With groups off, a spec that compares a group's rollouts could score nothing."""
        if self.group_by is not None or self._groups_checked:
            return
        if self.client.needs_groups():
            raise RewardKitError(
                f"{self.__name__}: the server's spec at {self.client.url} compares the samples of a group, "
                "and this reward function sends no groups (group_by=None): pass group_by=\"prompt\" "
                "(the completions of one prompt form a group) or the name of a group id column"
            )
        self._groups_checked = True

    def samples(self, prompts: Sequence[Any], completions: Sequence[Any], columns: dict) -> list[dict]:
        self.check_columns(columns)
        call = uuid.uuid4().hex[:12]
        prompt_groups: dict[str, str] = {}
        samples = []
        for i, completion in enumerate(completions):
            sample: dict = {"id": self.client.next_id("trl"), "response": _completion_text(completion), "metadata": {}}
            prompt = _prompt(prompts[i]) if prompts is not None and i < len(prompts) else None
            if prompt is not None:
                sample["prompt"] = prompt
            reference = _column(columns, self.reference_column, i)
            if reference is not None:
                sample["reference"] = _reference(reference)
            data_source = _column(columns, self.data_source_column, i)
            if data_source is not None:
                sample["data_source"] = str(data_source)
            if self.group_by == "prompt":
                key = json.dumps(prompt, sort_keys=True)
                sample["group"] = prompt_groups.setdefault(key, f"trl-{call}-{len(prompt_groups)}")
            elif self.group_by is not None:
                group = _column(columns, self.group_by, i)
                if group is not None:
                    sample["group"] = str(group)
            samples.append(sample)
        return samples

    @staticmethod
    def rewards_of(results: Iterable[dict]) -> list[Optional[float]]:
        # None tells GRPOTrainer to skip the sample, which is what a failed row should get.
        return [float(r["reward"]) if r.get("status") == "ok" and r.get("reward") is not None else None for r in results]

    def __call__(self, prompts=None, completions=None, **kwargs) -> list[Optional[float]]:
        if completions is None:
            raise RewardKitError("TRL passed no completions")
        samples = self.samples(prompts, completions, kwargs)
        self.check_groups()
        rewards = self.rewards_of(self.client.rewards(samples))
        # TRL turns None into NaN and averages around it; the failed share is logged so a
        # failing server shows in the trainer's metrics (TRL >= 1.0 passes `log_metric`).
        log_metric = kwargs.get("log_metric")
        if callable(log_metric) and rewards:
            log_metric(f"{self.__name__}/failed", sum(r is None for r in rewards) / len(rewards))
        return rewards


def async_reward_function(
    reference_column: Optional[str] = "answer",
    data_source_column: Optional[str] = None,
    name: str = "rewardkit",
    client: Optional[RewardKitClient] = None,
    group_by: Optional[str] = "prompt",
) -> Callable[..., Coroutine[Any, Any, list[Optional[float]]]]:
    """An `async def` reward function for TRL, named `name`. TRL runs a reward function
    concurrently with the others only when `inspect.iscoroutinefunction` is true of it, which a
    callable instance never is, so this is a real coroutine function. The HTTP call runs in a
    thread, leaving TRL's event loop free."""
    sync = RewardKitReward(reference_column, data_source_column, name, client, group_by)

    async def reward(prompts=None, completions=None, **kwargs) -> list[Optional[float]]:
        return await asyncio.to_thread(sync, prompts, completions, **kwargs)

    reward.__name__ = reward.__qualname__ = name
    return reward


# What GRPOTrainer passes a reward function besides the dataset's columns.
_TRL_ARGUMENTS = {"prompts", "completions", "completion_ids", "trainer_state", "log_extra", "log_metric", "environments"}


def _column(columns: dict, name: Optional[str], index: int) -> Any:
    if not name or name not in columns:
        return None
    values = columns[name]
    return values[index] if isinstance(values, (list, tuple)) and index < len(values) else None


# ── OpenRLHF ──────────────────────────────────────────────────────────────────────────────────


def reward_func(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[Any]) -> dict:
    """OpenRLHF's `.py` reward path (`--reward.remote_url /path/to/rewardkit_client.py`): OpenRLHF
    loads this file and calls `reward_func(queries, prompts, labels)` in a thread, one sample at a
    time, and reads `{"rewards", "scores", "extra_logs"}` back — which is exactly what the
    server's `/get_reward` answers, so the lists go there as OpenRLHF's HTTP path would send them."""
    payload = {"query": list(queries), "prompts": list(prompts), "labels": [_plain(label) for label in labels]}
    for i, label in enumerate(payload["labels"]):
        if not _json_safe(label):
            raise RewardKitError(f"labels[{i}] cannot be sent as JSON: {type(label).__name__}")
    client = _client()
    body = client.post("/get_reward", payload)
    rewards = body.get("rewards")
    if not isinstance(rewards, list) or len(rewards) != len(payload["query"]):
        raise RewardKitError(f"{client.url}/get_reward answered {len(rewards or [])} rewards for {len(payload['query'])} queries")
    return body
