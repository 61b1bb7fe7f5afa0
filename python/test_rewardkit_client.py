"""Tests of the trainer shims, called the way each trainer calls them (upstream_callers.py
re-enacts the trainers' own dispatch code). The live tests need three servers, which
test/python-shims.e2e.test.ts starts: `rewardkit serve --spec math --token $REWARDKIT_TOKEN` at
REWARDKIT_URL, and without a token (OpenRLHF sends none) `--spec math` at REWARDKIT_OPEN_URL,
`--spec default` (routed: math, code, ifeval, reference) at REWARDKIT_ROUTED_URL, and a GenRM
judging within the group (its scripted judge prefers the response saying GOOD) at
REWARDKIT_GROUP_URL. The retry tests run their own tiny HTTP server."""

from __future__ import annotations

import asyncio
import http.server
import inspect
import json
import math
import os
import pickle
import threading
import unittest

import rewardkit_client as rk
import upstream_callers as up

LIVE = all(os.environ.get(name) for name in ("REWARDKIT_URL", "REWARDKIT_OPEN_URL", "REWARDKIT_ROUTED_URL", "REWARDKIT_GROUP_URL"))
NEEDS_SERVERS = "REWARDKIT_URL / REWARDKIT_OPEN_URL / REWARDKIT_ROUTED_URL / REWARDKIT_GROUP_URL are not set: no live rewardkit servers to call"
SHIM_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rewardkit_client.py")

try:
    import numpy
except ImportError:  # verl's numpy-typed rows are then not re-enacted
    numpy = None


class _FailedAs:
    """REWARDKIT_ON_FAILED for the length of a block."""

    def __init__(self, value: str) -> None:
        self.value = value

    def __enter__(self):
        os.environ["REWARDKIT_ON_FAILED"] = self.value

    def __exit__(self, *exc):
        del os.environ["REWARDKIT_ON_FAILED"]


class _RoutedServer:
    """Points the module's default client (the one verl's entry points use) at the routed server."""

    def __enter__(self):
        self.saved = rk._default_client
        rk._default_client = rk.RewardKitClient(url=os.environ["REWARDKIT_ROUTED_URL"])

    def __exit__(self, *exc):
        rk._default_client = self.saved


ROUTED_EXTRAS = {"score", "rewardkit_failed", "rewardkit/math", "rewardkit/code", "rewardkit/countdown", "rewardkit/ifeval", "rewardkit/exact_match", "rewardkit/token_f1"}


@unittest.skipUnless(LIVE, NEEDS_SERVERS)
class VerlComputeScore(unittest.TestCase):
    def test_correct_and_wrong_answers(self):
        good = rk.compute_score("gsm8k", "So the answer is 42.\n#### 42", "42")
        bad = rk.compute_score("gsm8k", "#### 41", "42", extra_info={"split": "train", "index": 3})
        self.assertEqual(good, {"score": 1.0, "rewardkit_failed": 0.0, "rewardkit/math": 1.0})
        self.assertEqual(bad["score"], 0.0)

    def test_a_failed_sample_raises_unless_a_value_is_configured(self):
        # No reference: the math source cannot check the answer, so the row fails.
        with self.assertRaises(rk.RewardKitError):
            rk.compute_score("gsm8k", "#### 42", None)
        with _FailedAs("-1"):
            self.assertEqual(rk.compute_score("gsm8k", "#### 42", None), {"score": -1.0, "rewardkit_failed": 1.0, "rewardkit/math": 0.0})

    def test_batch_manager_keeps_order_and_one_length_per_key_with_a_failed_sample(self):
        rows = [up.verl_row("gsm8k", "#### 7", "7"), up.verl_row("gsm8k", "#### 8", None), up.verl_row("math", "$\\boxed{\\frac{1}{2}}$", "0.5")]
        with _FailedAs("0"):
            rewards, extras = up.verl_batch_manager(rk.compute_score_batch, rows)
        self.assertEqual(rewards, [1.0, 0.0, 1.0])
        self.assertEqual(extras["rewardkit_failed"], [0.0, 1.0, 0.0])
        self.assertEqual(extras["rewardkit/math"], [1.0, 0.0, 1.0])

    def test_naive_manager_with_a_failed_sample_first(self):
        rows = [up.verl_row("gsm8k", "#### 8", None), up.verl_row("gsm8k", "#### 7", "7")]
        with _FailedAs("0"):
            rewards, extras = up.verl_naive_manager(rk.compute_score, rows)
        self.assertEqual(rewards, [0.0, 1.0])
        self.assertEqual(set(extras), {"score", "rewardkit_failed", "rewardkit/math"})

    def test_reward_loop_awaits_the_async_function_and_reads_every_key_of_the_first_sample(self):
        # A failed sample used to lack `rewardkit/math`: a KeyError when it came later, and the
        # key silently missing for the batch when it came first.
        for rows in (
            [up.verl_row("gsm8k", "#### 7", "7"), up.verl_row("gsm8k", "#### 8", None)],
            [up.verl_row("gsm8k", "#### 8", None), up.verl_row("gsm8k", "#### 7", "7")],
        ):
            with _FailedAs("0"):
                rewards, extras, was_async = up.verl_reward_loop(rk.compute_score_async, rows, reward_kwargs={"unused": 1})
            self.assertTrue(was_async)
            self.assertEqual(sorted(rewards), [0.0, 1.0])
            self.assertEqual(sorted(extras["rewardkit_failed"]), [0.0, 1.0])

    def test_reward_loop_runs_the_sync_function_in_its_executor(self):
        rewards, extras, was_async = up.verl_reward_loop(rk.compute_score, [up.verl_row("gsm8k", "#### 7", "7")])
        self.assertFalse(was_async)
        self.assertEqual((rewards, extras["rewardkit/math"]), ([1.0], [1.0]))

    def test_every_route_gives_every_component_of_the_spec(self):
        # A routed spec: the first sample goes to `reference`, the second to `math`; verl takes
        # the keys of the first, so both must carry all five components.
        rows = [up.verl_row("trivia", "Paris", "Paris"), up.verl_row("gsm8k", "#### 7", ["7", "7.0"])]
        with _RoutedServer():
            rewards, extras, _ = up.verl_reward_loop(rk.compute_score_async, rows)
            batch_rewards, batch_extras = up.verl_batch_manager(rk.compute_score_batch, list(reversed(rows)))
        self.assertEqual(set(extras), ROUTED_EXTRAS)
        self.assertEqual(set(batch_extras), ROUTED_EXTRAS)
        self.assertEqual(rewards, [1.0, 1.0])
        self.assertEqual(extras["rewardkit/math"], [0.0, 1.0])
        self.assertEqual(extras["rewardkit/exact_match"], [1.0, 0.0])
        self.assertEqual(batch_rewards, [1.0, 1.0])

    def test_the_data_source_names_verl_dispatches_reach_their_checks(self):
        # verl's own names (verl/utils/reward_score/__init__.py): each used to fall through to
        # exact match, scoring a correct answer 0 with status ok.
        rows = [
            up.verl_row("lighteval/MATH", "So $\\boxed{3}$.", "3"),
            up.verl_row("DigitalLearningGmbH/MATH-lighteval", "$\\boxed{\\frac{1}{2}}$", "\\frac12"),
            up.verl_row("HuggingFaceH4/MATH-500", "The answer is $\\boxed{7}$", "7"),
            up.verl_row("openai/gsm8k", "6 * 7 = 42\n#### 42", "42"),
            up.verl_row("searchR1_nq", "<answer>The Eiffel Tower</answer>", {"target": ["Eiffel Tower"]}),
        ]
        with _RoutedServer():
            rewards, extras = up.verl_batch_manager(rk.compute_score_batch, rows)
        self.assertEqual(rewards, [1.0, 1.0, 1.0, 1.0, 1.0])
        self.assertEqual(extras["rewardkit/math"], [1.0, 1.0, 1.0, 1.0, 0.0])

    def test_code_rows_keep_their_tests_in_the_ground_truth(self):
        # prime_code / sandbox_fusion layouts: a JSON string of inputs/outputs, a dict, fn_name
        # calls, and bare code with no fence (verl runs the whole response then).
        stdio = {"inputs": ["2\n", "5\n"], "outputs": ["4\n", "10\n"]}
        calls = {"fn_name": "add", "inputs": ["1\n2", "3\n4"], "outputs": ["3", "7"]}
        rows = [
            up.verl_row("codecontests", "```python\nprint(int(input()) * 2)\n```", json.dumps(stdio)),
            up.verl_row("likaixin/TACO-verified", "print(int(input()) * 2)\n", stdio),
            up.verl_row("taco", "def add(a, b):\n    return a + b\n", json.dumps(calls)),
            up.verl_row("apps", "```python\nprint(int(input()) + 1)\n```", json.dumps(stdio)),
        ]
        with _RoutedServer():
            rewards, extras = up.verl_naive_manager(rk.compute_score, rows)
        self.assertEqual(rewards, [1.0, 1.0, 1.0, 0.0])
        self.assertEqual(extras["rewardkit/code"], [1.0, 1.0, 1.0, 0.0])

    @unittest.skipIf(numpy is None, "numpy is not installed: verl's numpy-typed parquet rows cannot be built")
    def test_numpy_values_from_verl_parquet_rows_are_sent_as_plain_json(self):
        rows = [up.verl_row("gsm8k", "#### 7", numpy.array(["7", "7.0"]), {"index": numpy.int64(4), "tests": numpy.array([1, 2])})]
        rewards, extras = up.verl_naive_manager(rk.compute_score, rows)
        self.assertEqual(rewards, [1.0])
        sample = rk._verl_sample("s", "gsm8k", "x", numpy.array(["7"]), {"index": numpy.int64(4), "f": object()})
        self.assertEqual(sample["reference"], ["7"])
        self.assertEqual(sample["metadata"], {"index": 4, "rewardkit_unsent_extra_info": ["f"]})


class _TrlEventLoop:
    """GRPOTrainer runs async reward functions on an event loop in a daemon thread: each test gets one."""

    def setUp(self):
        super().setUp()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def tearDown(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()
        super().tearDown()


@unittest.skipUnless(LIVE, NEEDS_SERVERS)
class TrlGroupSpec(_TrlEventLoop, unittest.TestCase):
    """A spec that compares the completions of a prompt, called as GRPOTrainer calls it."""

    inputs = [{"prompt": p, "answer": "x"} for p in ("Write a line.", "Write a line.", "Write a word.", "Write a word.")]
    prompts = ["Write a line.", "Write a line.", "Write a word.", "Write a word."]
    completions = ["GOOD one", "BAD one", "BAD two", "GOOD two"]

    def setUp(self):
        super().setUp()
        self.client = rk.RewardKitClient(url=os.environ["REWARDKIT_GROUP_URL"])

    def calculate(self, func):
        return up.trl_calculate_rewards([func], self.inputs, self.prompts, self.completions, [[1]] * 4, self.loop)

    def test_the_completions_of_each_prompt_are_judged_as_a_group(self):
        # Sent without groups, every sample used to come back failed: all None.
        columns, _ = self.calculate(rk.async_reward_function(reference_column=None, client=self.client))
        self.assertEqual(columns[0], [1.0, 0.0, 0.0, 1.0])

    def test_with_groups_off_the_need_is_an_error_before_any_scoring_request(self):
        with self.assertRaisesRegex(rk.RewardKitError, "compares the samples of a group"):
            self.calculate(rk.RewardKitReward(reference_column=None, group_by=None, client=self.client))


class VerlGroundTruths(unittest.TestCase):
    """How a verl ground truth becomes the sample's reference (no server needed)."""

    def test_search_r1_targets_and_code_tests_are_sent_as_the_server_reads_them(self):
        targets = numpy.array(["Paris", "paris"]) if numpy is not None else ["Paris", "paris"]
        self.assertEqual(rk._verl_sample("s", "searchR1_nq", "x", {"target": targets}, None)["reference"], ["Paris", "paris"])
        tests = {"inputs": ["1\n"], "outputs": ["2\n"], "fn_name": None}
        # Python's repr of a dict ("{'inputs': ...}") is not JSON: the tests would be unreadable.
        self.assertEqual(json.loads(rk._verl_sample("s", "taco", "x", tests, None)["reference"]), tests)
        self.assertEqual(rk._verl_sample("s", "taco", "x", json.dumps(tests), None)["reference"], json.dumps(tests))


@unittest.skipUnless(LIVE, NEEDS_SERVERS)
class TrlRewardFunctions(_TrlEventLoop, unittest.TestCase):
    inputs = [{"prompt": [{"role": "user", "content": "What is 6 * 7?"}], "answer": a, "task": "arith"} for a in ("42", "42", None)]
    prompts = [[{"role": "user", "content": "What is 6 * 7?"}]] * 3
    completions = [
        [{"role": "assistant", "content": "6 * 7 = 42. #### 42"}],
        [{"role": "assistant", "content": "#### 41"}],
        [{"role": "assistant", "content": "#### 42"}],
    ]

    def calculate(self, funcs, inputs=None, completions=None, prompts=None):
        completions = completions or self.completions
        return up.trl_calculate_rewards(funcs, inputs or self.inputs, prompts or self.prompts, completions, [[1, 2]] * len(completions), self.loop)

    def assertRewards(self, got, expected):
        self.assertEqual([None if math.isnan(x) else x for x in got], expected)

    def test_the_async_function_takes_trls_async_path_under_its_name(self):
        reward = rk.async_reward_function(reference_column="answer", name="rewardkit_math")
        self.assertTrue(inspect.iscoroutinefunction(reward))
        self.assertEqual(up.trl_reward_func_name(reward), "rewardkit_math")
        columns, call = self.calculate([reward])
        # The third has no reference: failed, so None (NaN, which GRPOTrainer skips), never 0.
        self.assertRewards(columns[0], [1.0, 0.0, None])
        self.assertEqual(dict(call.metrics), {"rewardkit_math/failed": [1 / 3]})

    def test_sync_and_async_functions_side_by_side(self):
        sync = rk.RewardKitReward(reference_column="answer", name="rk_sync")
        self.assertFalse(inspect.iscoroutinefunction(sync))
        self.assertEqual(up.trl_reward_func_name(sync), "rk_sync")
        columns, _ = self.calculate([sync, rk.async_reward_function(name="rk_async"), rk.async_reward_function(name="rk_async2")])
        for column in columns:
            self.assertRewards(column, [1.0, 0.0, None])

    def test_tool_calling_completions_whose_assistant_turns_have_no_content(self):
        tool_call = {"type": "function", "function": {"name": "multiply", "arguments": {"a": 6, "b": 7}}}
        completions = [
            [
                {"role": "assistant", "content": None, "tool_calls": [tool_call]},
                {"role": "tool", "name": "multiply", "content": "42"},
                {"role": "assistant", "content": "The tool says #### 42"},
            ],
            [{"role": "assistant", "content": None, "tool_calls": [tool_call]}, {"role": "tool", "name": "multiply", "content": "42"}],
            [{"role": "assistant", "content": [{"type": "text", "text": "#### 42"}]}],
        ]
        prompts = [[{"role": "system", "content": None}, {"role": "user", "content": [{"type": "text", "text": "6*7?"}]}]] * 3
        inputs = [dict(example, answer="42") for example in self.inputs]
        columns, _ = self.calculate([rk.async_reward_function()], inputs=inputs, completions=completions, prompts=prompts)
        # The second never answered: its response is empty, a wrong answer rather than a crash.
        self.assertRewards(columns[0], [1.0, 0.0, 1.0])
        samples = rk.RewardKitReward().samples(prompts, completions, {"answer": ["42"] * 3})
        self.assertEqual(samples[0]["response"], "The tool says #### 42")
        self.assertEqual(samples[0]["prompt"], [{"role": "system", "content": ""}, {"role": "user", "content": "6*7?"}])

    def test_plain_text_prompts_and_a_data_source_column(self):
        inputs = [{"prompt": "q", "solution": "3", "source": "gsm8k"}, {"prompt": "q", "solution": "3", "source": "gsm8k"}]
        reward = rk.async_reward_function(reference_column="solution", data_source_column="source")
        columns, _ = self.calculate([reward], inputs=inputs, prompts=["q", "q"], completions=["#### 3", "#### 4"])
        self.assertRewards(columns[0], [1.0, 0.0])

    def test_the_sync_form_pickles_for_trls_spawned_async_grpo_worker(self):
        reward = pickle.loads(pickle.dumps(rk.RewardKitReward(reference_column="answer", name="rk")))
        self.assertEqual((reward.__name__, reward.reference_column), ("rk", "answer"))
        columns, _ = self.calculate([reward])
        self.assertRewards(columns[0], [1.0, 0.0, None])

    def test_a_wrong_token_is_refused_without_retrying(self):
        client = rk.RewardKitClient(token="not-the-token", retries=3)
        with self.assertRaisesRegex(rk.RewardKitError, "HTTP 401"):
            client.rewards([{"id": "a", "response": "#### 1", "reference": "1"}])


@unittest.skipUnless(LIVE, NEEDS_SERVERS)
class OpenRlhfRemoteReward(unittest.TestCase):
    def setUp(self):
        self.get_reward = os.environ["REWARDKIT_OPEN_URL"] + "/get_reward"
        self.routed_get_reward = os.environ["REWARDKIT_ROUTED_URL"] + "/get_reward"

    def test_labels_as_the_dataset_holds_them(self):
        # `--data.label_key answer`: the raw value goes out, whatever its type.
        rows = [
            ({"answer": 42}, "#### 42", 1.0),
            ({"answer": "42"}, "#### 41", 0.0),
            ({"answer": ["0.5", "1/2"]}, "The answer is $\\boxed{\\frac{1}{2}}$", 1.0),
            ({"answer": [7, 8]}, "#### 8", 1.0),
            ({"answer": 2.5}, "#### 2.5", 1.0),
        ]
        for row, response, expected in rows:
            output = up.openrlhf_single_turn_reward([self.get_reward], "<|im_start|>user\nQ<|im_end|>\n", response, up.openrlhf_label(row, "answer"))
            self.assertEqual(output["reward"], [expected], row)
            self.assertEqual(output["extra_logs"]["failed"], [0])

    def test_a_null_label_or_no_label_key_fails_the_sample_visibly(self):
        for label in (up.openrlhf_label({"answer": None}, "answer"), up.openrlhf_label({"answer": "42"}, None)):
            output = up.openrlhf_single_turn_reward([self.get_reward], "P", "#### 42", label)
            self.assertEqual(output["extra_logs"]["failed"], [1])

    def test_several_reward_urls(self):
        # OpenRLHF splits its one-sample request over the URLs: the second gets empty lists.
        output = up.openrlhf_single_turn_reward([self.get_reward, self.routed_get_reward, self.get_reward], "P", "#### 42", "42")
        self.assertEqual(output["reward"], [1.0])
        answers = up.openrlhf_fetch_rewards_via_http([self.get_reward, self.routed_get_reward], ["P#### 42"], ["P"], ["42"])
        self.assertEqual(answers[1]["rewards"], [])
        self.assertEqual(answers[1]["scores"], [])
        self.assertTrue(all(values == [] for values in answers[1]["extra_logs"].values()))

    def test_extra_logs_have_the_same_keys_for_every_sample_of_a_routed_spec(self):
        # The routed server scores OpenRLHF samples by its `default` route (reference): every
        # sample still logs every component, so OpenRLHF can batch them by the first one's keys.
        outputs = [up.openrlhf_single_turn_reward([self.routed_get_reward], "P", r, "Paris") for r in ("Paris", "Lyon")]
        batched = up.openrlhf_experience_infos(outputs)
        self.assertEqual(batched["reward"], [[1.0], [0.0]])
        self.assertEqual(set(batched) - {"reward", "score"}, {"math", "code", "countdown", "ifeval", "exact_match", "token_f1", "failed", "invalid"})

    def test_the_py_reward_path_loads_this_file_and_calls_get_reward(self):
        output = up.openrlhf_single_turn_reward([SHIM_PATH], "<|im_start|>user\nQ<|im_end|>\n", "#### 42", 42)
        self.assertEqual(output["reward"], [1.0])
        self.assertEqual(output["scores"], [1.0])
        self.assertEqual(output["extra_logs"], {"math": [1.0], "failed": [0], "invalid": [0]})
        reward_func = up.openrlhf_load_reward_func(SHIM_PATH)
        self.assertEqual(list(inspect.signature(reward_func).parameters), ["queries", "prompts", "labels"])
        self.assertEqual(reward_func([], [], [])["rewards"], [])


class _Flaky(http.server.BaseHTTPRequestHandler):
    answers: list = []
    seen: list = []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        type(self).seen.append((self.path, self.headers.get("authorization"), body))
        status, headers, payload = type(self).answers.pop(0)
        if callable(payload):
            payload = payload(body)
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        data = json.dumps(payload).encode()
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        type(self).seen.append((self.path, self.headers.get("authorization"), None))
        data = json.dumps({"status": "ok", "spec": "scripted", "needs_groups": type(self).needs_groups}).encode()
        self.send_response(200)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    needs_groups = False

    def log_message(self, *args):
        pass


class _LocalServer(unittest.TestCase):
    """A tiny HTTP server answering what each test scripts in `_Flaky.answers`."""

    def setUp(self):
        _Flaky.answers, _Flaky.seen, _Flaky.needs_groups = [], [], False
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Flaky)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def tearDown(self):
        self.server.shutdown()
        self.server.server_close()


class ClientRetries(_LocalServer):
    def test_retries_429_and_503_honouring_retry_after(self):
        ok = {"request_id": "r", "results": [{"id": "a", "status": "ok", "reward": 1, "components": {}}], "components": []}
        _Flaky.answers = [(429, {"retry-after": "0"}, {"error": {}}), (503, {}, {}), (200, {}, ok)]
        client = rk.RewardKitClient(url=self.url, token="t", retries=3)
        client_backoff = rk._backoff
        rk._backoff = lambda attempt: 0.0
        try:
            results = client.rewards([{"id": "a", "response": "x"}])
        finally:
            rk._backoff = client_backoff
        self.assertEqual(results[0]["reward"], 1)
        self.assertEqual(len(_Flaky.seen), 3)
        self.assertEqual({s[0] for s in _Flaky.seen}, {"/v1/rewards"})
        self.assertEqual(_Flaky.seen[0][1], "Bearer t")

    def test_a_400_is_not_retried_and_names_the_field(self):
        _Flaky.answers = [(400, {}, {"error": {"issues": [{"path": "samples.0.response"}]}})]
        client = rk.RewardKitClient(url=self.url, retries=5)
        with self.assertRaisesRegex(rk.RewardKitError, "samples.0.response"):
            client.rewards([{"id": "a"}])
        self.assertEqual(len(_Flaky.seen), 1)

    def test_gives_up_after_the_configured_attempts(self):
        _Flaky.answers = [(503, {"retry-after": "0"}, {})] * 2
        client = rk.RewardKitClient(url=self.url, retries=2)
        with self.assertRaisesRegex(rk.RewardKitError, "after 2 attempts"):
            client.rewards([{"id": "a", "response": "x"}])

    def test_a_short_answer_is_an_error(self):
        _Flaky.answers = [(200, {}, {"results": []})]
        with self.assertRaisesRegex(rk.RewardKitError, "0 results for 1 samples"):
            rk.RewardKitClient(url=self.url).rewards([{"id": "a", "response": "x"}])

    def test_an_answer_without_the_component_list_is_an_error(self):
        # verl needs every component name to give every sample the same extras.
        _Flaky.answers = [(200, {}, {"results": [{"id": "a", "status": "ok", "reward": 1, "components": {}}]})]
        with self.assertRaisesRegex(rk.RewardKitError, "no component list"):
            rk.RewardKitClient(url=self.url).score([{"id": "a", "response": "x"}])



class TrlDispatchChecks(_TrlEventLoop, _LocalServer):
    """What a TRL reward function refuses before any scoring request, called as GRPOTrainer calls it."""

    inputs = [{"prompt": p, "solution": "3", "source": "gsm8k"} for p in ("q1", "q1", "q2")]
    prompts = ["q1", "q1", "q2"]
    completions = ["#### 3", "#### 4", "#### 3"]

    def calculate(self, func):
        return up.trl_calculate_rewards([func], self.inputs, self.prompts, self.completions, [[1]] * 3, self.loop)

    def client(self):
        return rk.RewardKitClient(url=self.url, retries=1)

    def scored(self, body):
        results = [{"id": x["id"], "status": "ok", "reward": 1, "components": {}} for x in body["samples"]]
        return {"results": results, "components": []}

    def test_a_reference_column_trl_does_not_pass_is_an_error_naming_it(self):
        # The default "answer" is not among this dataset's columns: every reward used to be None.
        for func in (rk.RewardKitReward(client=self.client()), rk.async_reward_function(client=self.client())):
            with self.assertRaisesRegex(rk.RewardKitError, r"reference_column='answer' is not a column of the dataset \(TRL passed the columns: solution, source\)"):
                self.calculate(func)
        self.assertEqual(_Flaky.seen, [])

    def test_a_data_source_or_group_column_trl_does_not_pass_is_an_error_naming_it(self):
        for kwargs, message in (({"data_source_column": "dataset"}, "data_source_column='dataset'"), ({"group_by": "group_id"}, "group_by='group_id'")):
            with self.assertRaisesRegex(rk.RewardKitError, message):
                self.calculate(rk.RewardKitReward(reference_column="solution", client=self.client(), **kwargs))
        self.assertEqual(_Flaky.seen, [])

    def test_the_completions_of_one_prompt_go_as_one_group(self):
        _Flaky.answers = [(200, {}, self.scored)]
        columns, _ = self.calculate(rk.async_reward_function(reference_column="solution", data_source_column="source", client=self.client()))
        self.assertEqual(columns[0], [1.0, 1.0, 1.0])
        [(path, _, body)] = _Flaky.seen
        self.assertEqual(path, "/v1/rewards")
        groups = [sample["group"] for sample in body["samples"]]
        self.assertEqual(groups[0], groups[1])
        self.assertNotEqual(groups[0], groups[2])
        self.assertEqual([sample["data_source"] for sample in body["samples"]], ["gsm8k"] * 3)

    def test_a_spec_that_needs_groups_is_refused_before_scoring_when_groups_are_off(self):
        _Flaky.needs_groups = True
        with self.assertRaisesRegex(rk.RewardKitError, "compares the samples of a group.*group_by=None"):
            self.calculate(rk.RewardKitReward(reference_column="solution", group_by=None, client=self.client()))
        self.assertEqual([seen[0] for seen in _Flaky.seen], ["/healthz"])
        # A spec that needs none is scored without groups, and /healthz is asked once.
        _Flaky.needs_groups, _Flaky.seen = False, []
        _Flaky.answers = [(200, {}, self.scored)] * 2
        func = rk.RewardKitReward(reference_column="solution", group_by=None, client=self.client())
        self.calculate(func)
        self.calculate(func)
        self.assertEqual([seen[0] for seen in _Flaky.seen], ["/healthz", "/v1/rewards", "/v1/rewards"])
        self.assertNotIn("group", _Flaky.seen[1][2]["samples"][0])


class VerlRewardLoopBatching(_LocalServer):
    def test_the_reward_loop_sends_the_samples_it_awaits_together_as_one_request(self):
        def answer(body):
            # "#### 0" could not be scored; the others score 1 with component "math".
            results = [
                {"id": x["id"], "status": "failed", "reward": None, "components": {}, "errors": ["no answer"]}
                if x["response"] == "#### 0"
                else {"id": x["id"], "status": "ok", "reward": 1, "components": {"math": 1}}
                for x in body["samples"]
            ]
            return {"results": results, "components": ["math", "format"]}

        rows = [up.verl_row("gsm8k", f"#### {n}", str(n)) for n in (1, 2, 3)]
        saved = rk._default_client
        rk._default_client = rk.RewardKitClient(url=self.url, retries=1)
        try:
            _Flaky.answers = [(200, {}, answer)]
            rewards, extras, was_async = up.verl_reward_loop(rk.compute_score_async, rows)
            self.assertTrue(was_async)
            self.assertEqual(rewards, [1.0, 1.0, 1.0])
            self.assertEqual(extras["rewardkit/format"], [0.0, 0.0, 0.0])
            self.assertEqual([len(seen[2]["samples"]) for seen in _Flaky.seen], [3])

            # A failed sample fails alone (REWARDKIT_ON_FAILED=raise); the request is still one.
            _Flaky.answers, _Flaky.seen = [(200, {}, answer)], []

            async def three():
                calls = [rk.compute_score_async("gsm8k", r, "1") for r in ("#### 1", "#### 0", "#### 1")]
                return await asyncio.gather(*calls, return_exceptions=True)

            first, failed, third = asyncio.run(three())
            self.assertEqual((first["score"], third["score"]), (1.0, 1.0))
            self.assertIsInstance(failed, rk.RewardKitError)
            self.assertRegex(str(failed), "no answer")
            self.assertEqual(len(_Flaky.seen), 1)

            # REWARDKIT_MAX_BATCH caps a request.
            _Flaky.answers, _Flaky.seen = [(200, {}, answer)] * 2, []
            os.environ["REWARDKIT_MAX_BATCH"] = "2"
            try:
                up.verl_reward_loop(rk.compute_score_async, rows)
            finally:
                del os.environ["REWARDKIT_MAX_BATCH"]
            self.assertEqual(sorted(len(seen[2]["samples"]) for seen in _Flaky.seen), [1, 2])
        finally:
            rk._default_client = saved


if __name__ == "__main__":
    unittest.main()
