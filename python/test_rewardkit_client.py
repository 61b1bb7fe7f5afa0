"""Tests of the trainer shims. The live tests need a `rewardkit serve --spec math` at
REWARDKIT_URL (test/python-shims.e2e.test.ts starts one, with token REWARDKIT_TOKEN);
the retry tests run their own tiny HTTP server."""

from __future__ import annotations

import asyncio
import http.server
import json
import os
import threading
import unittest

import rewardkit_client as rk

LIVE = bool(os.environ.get("REWARDKIT_URL"))


@unittest.skipUnless(LIVE, "REWARDKIT_URL is not set: no live rewardkit server to call")
class VerlComputeScore(unittest.TestCase):
    def test_correct_and_wrong_answers(self):
        good = rk.compute_score("gsm8k", "So the answer is 42.\n#### 42", "42")
        bad = rk.compute_score("gsm8k", "#### 41", "42", extra_info={"split": "train", "index": 3})
        self.assertEqual(good["score"], 1.0)
        self.assertEqual(bad["score"], 0.0)
        self.assertIn("rewardkit/math", good)

    def test_batch_form_keeps_order(self):
        scores = rk.compute_score_batch(
            data_sources=["gsm8k", "gsm8k", "math"],
            solution_strs=["#### 7", "#### 8", "The answer is $\\boxed{\\frac{1}{2}}$"],
            ground_truths=["7", "7", "0.5"],
            extra_infos=[{}, {}, {}],
        )
        self.assertEqual([s["score"] for s in scores], [1.0, 0.0, 1.0])

    def test_a_failed_sample_raises_unless_a_value_is_configured(self):
        # No reference: the math source cannot check the answer, so the row fails.
        with self.assertRaises(rk.RewardKitError):
            rk.compute_score("gsm8k", "#### 42", None)
        os.environ["REWARDKIT_ON_FAILED"] = "-1"
        try:
            self.assertEqual(rk.compute_score("gsm8k", "#### 42", None), {"score": -1.0, "rewardkit_failed": 1.0})
        finally:
            del os.environ["REWARDKIT_ON_FAILED"]


@unittest.skipUnless(LIVE, "REWARDKIT_URL is not set: no live rewardkit server to call")
class TrlRewardFunctions(unittest.TestCase):
    prompts = [[{"role": "user", "content": "What is 6 * 7?"}]] * 3
    completions = [
        [{"role": "assistant", "content": "6 * 7 = 42. #### 42"}],
        [{"role": "assistant", "content": "#### 41"}],
        [{"role": "assistant", "content": "#### 42"}],
    ]

    def test_sync_reward_function(self):
        reward = rk.RewardKitReward(reference_column="answer", name="math_reward")
        self.assertEqual(reward.__name__, "math_reward")
        scores = reward(prompts=self.prompts, completions=self.completions, answer=["42", "42", None], trainer_state=None)
        # The third has no reference: failed, so None (GRPOTrainer skips it), never 0.
        self.assertEqual(scores, [1.0, 0.0, None])

    def test_async_reward_function(self):
        reward = rk.AsyncRewardKitReward(reference_column="solution")

        async def both():
            return await asyncio.gather(
                reward(prompts=["q"], completions=["#### 3"], solution=["3"]),
                reward(prompts=["q"], completions=["#### 4"], solution=["3"]),
            )

        self.assertEqual(asyncio.run(both()), [[1.0], [0.0]])

    def test_a_wrong_token_is_refused_without_retrying(self):
        client = rk.RewardKitClient(token="not-the-token", retries=3)
        with self.assertRaisesRegex(rk.RewardKitError, "HTTP 401"):
            client.rewards([{"id": "a", "response": "#### 1", "reference": "1"}])


class _Flaky(http.server.BaseHTTPRequestHandler):
    answers: list = []
    seen: list = []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        type(self).seen.append((self.path, self.headers.get("authorization"), body))
        status, headers, payload = type(self).answers.pop(0)
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        data = json.dumps(payload).encode()
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


class ClientRetries(unittest.TestCase):
    def setUp(self):
        _Flaky.answers, _Flaky.seen = [], []
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Flaky)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def tearDown(self):
        self.server.shutdown()
        self.server.server_close()

    def test_retries_429_and_503_honouring_retry_after(self):
        ok = {"request_id": "r", "results": [{"id": "a", "status": "ok", "reward": 1, "components": {}}]}
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


if __name__ == "__main__":
    unittest.main()
