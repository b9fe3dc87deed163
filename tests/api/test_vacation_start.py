"""A starting vacation allowance (issue 30 item 10): a new account holds
VACATION_START_DAYS days (default 7) from the moment it is made, so the
vacation box is of use in its first match; it still earns one day per
VACATION_EVERY_DAYS and never holds more than VACATION_MAX_DAYS.

Two servers on one cluster: one with the defaults, one configured
(VACATION_START_DAYS 2, VACATION_MAX_DAYS 3). Both read the time from
WP_TEST_CLOCK_FILE, so the days earned are exact.
"""

import calendar
import os

import matchlib as ml
from matchlib import wp

D = 86400
T0 = calendar.timegm((2030, 3, 4, 0, 0, 0))


def set_time(path, t):
    with open(path + ".tmp", "w") as f:
        f.write("%d\n" % t)
    os.replace(path + ".tmp", path)


class ClockedServer(wp.ServerTestCase):
    """A server reading the time from a file, with `vacation_env` set."""
    vacation_env = {}

    @classmethod
    def setUpClass(cls):
        cls.clock_dir = wp.make_tmpdir("wp-vacstart-")
        cls.clock_file = os.path.join(cls.clock_dir, "now")
        cls.server_env = {"WP_TEST_CLOCK_FILE": cls.clock_file, **cls.vacation_env}
        set_time(cls.clock_file, T0)
        super().setUpClass()
        cls.addClassCleanup(wp.remove_tmpdir, cls.clock_dir)


class DefaultStartTest(ClockedServer):
    """The defaults: 7 days at once, then one per 30 days, at most 30."""

    def test_a_new_account_holds_seven_days(self):
        set_time(self.clock_file, T0)
        a = ml.Client(self.server, "Newcomer")
        r = a.req("GET", "/api/me/vacation")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json()["balance_days"], 7, "the starting allowance, on the first day")
        # It can be spent at once, whole days, and what is left stays.
        r = a.req("POST", "/api/me/vacation", {"days": 5})
        self.assertEqual(r.status, 201, r)
        self.assertEqual(r.json()["balance_days"], 2)
        set_time(self.clock_file, T0 + 6 * D)
        self.assertProblem(a.req("POST", "/api/me/vacation", {"days": 3}), 409,
                           "vacation-unavailable")
        # A month on, one day more is earned.
        set_time(self.clock_file, T0 + 30 * D)
        self.assertEqual(a.req("GET", "/api/me/vacation").json()["balance_days"], 3)

    def test_the_allowance_and_the_days_earned_stop_at_the_maximum(self):
        set_time(self.clock_file, T0)
        a = ml.Client(self.server, "Patient")
        set_time(self.clock_file, T0 + 40 * 30 * D)
        self.assertEqual(a.req("GET", "/api/me/vacation").json()["balance_days"], 30)


class ConfiguredStartTest(ClockedServer):
    """VACATION_START_DAYS 2 with VACATION_MAX_DAYS 3 and one day per 10."""
    vacation_env = {"VACATION_START_DAYS": "2", "VACATION_MAX_DAYS": "3",
                    "VACATION_EVERY_DAYS": "10"}

    def test_the_configured_allowance(self):
        set_time(self.clock_file, T0)
        a = ml.Client(self.server, "Configured")
        self.assertEqual(a.req("GET", "/api/me/vacation").json()["balance_days"], 2)
        set_time(self.clock_file, T0 + 10 * D)
        self.assertEqual(a.req("GET", "/api/me/vacation").json()["balance_days"], 3)
        set_time(self.clock_file, T0 + 30 * D)
        self.assertEqual(a.req("GET", "/api/me/vacation").json()["balance_days"], 3, "capped")


if __name__ == "__main__":
    wp.main()
