// SPDX-License-Identifier: GPL-2.0-or-later
/* The full-screen monitor: terminal setup and restore, and the one event
 * loop. The loop waits for a key or the next refresh, hands a key to the
 * current screen's key table (the domain list, help, sort menu, column
 * chooser, a prompt or the detail pane: each has a draw function and a
 * key table), does what the key's action says it changed, and takes the
 * samples, in every screen. */
#include "tui_state.h"
#include "xgtop/tui/tui.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Codes beyond ncurses' own, returned by tui_key(). */
#define TUI_KEY_TIMEOUT (-1)   /* the wait ran out with no key */
#define TUI_KEY_QUIT    (-2)   /* SIGINT/SIGTERM/SIGHUP arrived */

/* A signal handler can reach only file-scope state: which terminating
 * signal came, whether the window changed size, and the write end of the
 * self-pipe that wakes poll() whichever thread took the signal
 * (process-wide state: src/README.md lists every such piece). */
static volatile sig_atomic_t tui_sig_quit;
static volatile sig_atomic_t tui_sig_winch;
static int tui_sig_wfd = -1;

static void tui_on_signal(int sig)
{
	int saved = errno;
	if (sig == SIGWINCH)
		tui_sig_winch = 1;
	else
		tui_sig_quit = sig;
	if (tui_sig_wfd >= 0) {
		ssize_t r = write(tui_sig_wfd, "s", 1);
		(void)r;  /* a full pipe already holds a wake-up */
	}
	errno = saved;
}

static const int tui_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGWINCH };

/* Safety net for exit() paths that never return to tui_run (an allocation
 * failure, say): the shell must not be left in raw mode. */
static void tui_atexit(void)
{
	if (!isendwin())
		endwin();
}

static void tui_resize(void)
{
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
}

/* Waits up to timeout_ms (-1 = forever) for a key. Returns the key (a
 * character in *wch with ret OK, or a KEY_* code with ret KEY_CODE_YES),
 * TUI_KEY_TIMEOUT or TUI_KEY_QUIT. A resize comes back as KEY_RESIZE. */
static int tui_key(struct tui *t, int timeout_ms, wint_t *wch)
{
	uint64_t end = timeout_ms >= 0 ? xg_now_mono_ns() + (uint64_t)timeout_ms * 1000000ull : 0;
	int idle_reads = 0;

	for (;;) {
		if (tui_sig_quit)
			return TUI_KEY_QUIT;
		if (tui_sig_winch) {
			tui_sig_winch = 0;
			tui_resize();
			*wch = KEY_RESIZE;
			return KEY_CODE_YES;
		}
		int rc = get_wch(wch);
		if (rc == KEY_CODE_YES) {
			/* Some terminfo entries name \e[1~ and \e[4~ Find and
			 * Select; every terminal that sends them means Home/End. */
			if (*wch == KEY_FIND)
				*wch = KEY_HOME;
			else if (*wch == KEY_SELECT)
				*wch = KEY_END;
		}
		if (rc != ERR)
			return rc;
		int ms = -1;
		if (timeout_ms >= 0) {
			uint64_t now = xg_now_mono_ns();
			if (now >= end)
				return TUI_KEY_TIMEOUT;
			ms = (int)((end - now + 999999ull) / 1000000ull);
		}
		struct pollfd p[2] = {
			{ .fd = STDIN_FILENO, .events = POLLIN },
			{ .fd = t->sig_fd, .events = POLLIN },
		};
		int n = poll(p, 2, ms);
		if (n < 0 && errno != EINTR) {
			tui_set_msg(t, true, "waiting for keys: %s", strerror(errno));
			t->fatal = true;
			return TUI_KEY_QUIT;
		}
		if (n > 0 && p[1].revents) {
			char drain[64];
			while (read(t->sig_fd, drain, sizeof(drain)) > 0)
				;
		}
		/* A closed terminal reads as endless "ready, nothing there". */
		if (n > 0 && p[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			return TUI_KEY_QUIT;
		if (n > 0 && p[0].revents & POLLIN) {
			if (++idle_reads > 100)
				return TUI_KEY_QUIT;
		} else {
			idle_reads = 0;
		}
	}
}

/* Takes one sample and schedules the next. */
static int tui_step(struct tui *t, struct xg_err *err)
{
	uint64_t t0 = xg_now_mono_ns();
	/* The detail pane shows every figure of its domain (a source that
	 * computes remotely sends the rows on screen those of the columns
	 * shown). */
	t->e->rows_every_field = t->mode == TUI_MODE_DETAIL;
	int rc = engine_step(t->e, err);
	if (rc < 0 && tui_time_failed(t, err)) {
		err->msg[0] = 0;
		t->last_step = t0;
		t->next_due = t0 + engine_wait_ns(t->e);
		return 0;
	}
	if (rc < 0 && t->e->have_cur && t->e->ops->retries) {
		tui_set_msg(t, true, "the last figures, asking again: %s", err->msg);
		t->msg_retry = true;
		err->msg[0] = 0;
		t->last_step = t0;
		t->next_due = t0 + engine_wait_ns(t->e);
		return 0;
	}
	if (rc < 0)
		return -1;
	if (t->msg_retry)
		t->msg[0] = 0;
	t->msg_retry = false;
	t->time_moved = false;
	if (rc == 1) {
		t->eof = true;
		if (t->e->end_notice[0])
			tui_set_msg(t, false, "%s", t->e->end_notice);
		return 0;
	}
	t->last_step = t0;
	t->next_due = t0 + engine_wait_ns(t->e);
	return 0;
}

/* Every screen, by mode: how it draws and its keys. */
static const struct tui_screen tui_screens[TUI_MODE_COUNT] = {
	[TUI_MODE_TABLE] = { tui_table_draw, &tui_list_keys, false },
	[TUI_MODE_HELP] = { tui_help_draw, &tui_help_keys, false },
	[TUI_MODE_MENU] = { tui_menu_draw, &tui_menu_keys, true },
	[TUI_MODE_COLUMNS] = { tui_columns_draw, &tui_columns_keys, true },
	[TUI_MODE_PROMPT] = { tui_prompt_draw, &tui_prompt_keys, true },
	[TUI_MODE_DETAIL] = { tui_detail_draw, &tui_detail_keys, false },
};

void tui_keys_usage(FILE *f)
{
	for (int m = 0; m < TUI_MODE_COUNT; m++) {
		const struct tui_keymap *k = tui_screens[m].keys;
		if (m)
			fputc('\n', f);
		/* The list's keys are the monitor's: --help has long called them so. */
		tui_keymap_usage(f, k, m == TUI_MODE_TABLE ? "Keys (full screen)" : k->title);
	}
}

/* Does what a key's action said it changed (enum tui_react), but quitting
 * and sampling, which are the loop's. */
static void tui_react(struct tui *t, unsigned r)
{
	if (r & TUI_REFILTER)
		engine_reapply(t->e);
	if (r & TUI_RELAYOUT)
		t->name_sticky = 0;
	if (r & TUI_REDRAW)
		clearok(curscr, TRUE);
	if (r & TUI_BACK)
		t->mode = TUI_MODE_TABLE;
}

/* Milliseconds until the next sample is due, or -1 (frozen, or the
 * recording ended): no mode holds the schedule up. */
static int tui_timeout(const struct tui *t)
{
	if (t->eof || t->e->view.frozen)
		return -1;
	uint64_t now = xg_now_mono_ns();
	return now >= t->next_due ? 0 : (int)((t->next_due - now + 999999ull) / 1000000ull);
}

static int tui_loop(struct tui *t, struct xg_err *err)
{
	t->last_step = xg_now_mono_ns();
	if (tui_step(t, err) < 0)
		return 1;
	for (;;) {
		const struct tui_screen *m = &t->screens[t->mode];
		if (m->over_table)
			tui_table_draw(t);
		m->draw(t);
		doupdate();

		wint_t ch = 0;
		unsigned r = TUI_DONE;
		int rc = tui_key(t, tui_timeout(t), &ch);
		if (rc == TUI_KEY_QUIT)
			break;
		if (rc == KEY_CODE_YES && ch == KEY_RESIZE)
			r = TUI_RELAYOUT | TUI_REDRAW;
		else if (rc != TUI_KEY_TIMEOUT)
			r = tui_keymap_key(t, m->keys, rc, ch);
		if (r & TUI_QUIT)
			break;
		tui_react(t, r);
		/* Due even while keys keep coming: a held key must not stop
		 * the refresh. */
		bool due = !t->eof && !t->e->view.frozen && xg_now_mono_ns() >= t->next_due;
		if (due || (r & TUI_SAMPLE)) {
			if (tui_step(t, err) < 0)
				return 1;
		}
	}
	return 0;
}

/* Terminal modes, extra key sequences, mouse and colours on a new screen. */
static void tui_term_setup(struct tui *t)
{
	/* Registered again on a second run: harmless, endwin is guarded. */
	atexit(tui_atexit);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	/* Home/End as tmux, screen, rxvt and the Linux console send them,
	 * and as xterm sends them outside keypad mode: absent from many
	 * terminfo entries (xterm-256color has only \eOH / \eOF). */
	static const char *const home_end[][2] = {
		{ "\033[1~", "\033[4~" }, { "\033[7~", "\033[8~" }, { "\033[H", "\033[F" },
		{ "\033OH", "\033OF" },
	};
	for (size_t i = 0; i < XG_ARRAY_LEN(home_end); i++) {
		if (!key_defined(home_end[i][0]))
			define_key(home_end[i][0], KEY_HOME);
		if (!key_defined(home_end[i][1]))
			define_key(home_end[i][1], KEY_END);
	}
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	mouseinterval(0);
	tui_color_init(t);
	/* Until a screen has been suspended once, ncurses writes to the
	 * terminal after every cursor movement (for programs that use it
	 * below curses): a suspend and resume before the first frame makes a
	 * refresh a few writes instead of hundreds of small ones. */
	endwin();
	doupdate();
}

/* Starts the screen on the terminal and runs the loop; the screen is gone
 * again when this returns. */
static int tui_screen(struct tui *t, struct xg_err *err)
{
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		const char *term = getenv("TERM");
		if (!term || !*term)
			xg_fail(err, "cannot start the full-screen view: TERM is not set (try TERM=xterm, or -b for batch output)");
		else
			xg_fail(err, "cannot start the full-screen view: no terminfo entry for TERM=%s (try TERM=xterm, or -b for batch output)",
				term);
		return 1;
	}
	tui_term_setup(t);
	int rc = tui_loop(t, err);
	endwin();
	delscreen(scr);
	return rc;
}

int tui_run(struct xg_engine *e, struct xg_err *err)
{
	struct tui t = { .e = e, .screens = tui_screens, .sig_fd = -1 };
	struct sigaction sa, old[XG_ARRAY_LEN(tui_signals)];
	int pfd[2];

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		xg_fail(err, "the monitor needs a terminal on stdin and stdout (use -b for batch output)");
		return 1;
	}
	if (pipe2(pfd, O_CLOEXEC | O_NONBLOCK) < 0) {
		xg_fail_errno(err, errno, "cannot create the signal pipe");
		return 1;
	}

	t.sig_fd = pfd[0];
	tui_sig_wfd = pfd[1];
	tui_sig_quit = 0;
	tui_sig_winch = 0;
	/* Ours before ncurses starts, so it installs none of its own: a
	 * signal then ends the loop and takes the same restore path as q. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tui_on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < XG_ARRAY_LEN(tui_signals); i++)
		sigaction(tui_signals[i], &sa, &old[i]);

	/* Only the character type: numbers must keep their '.' decimal
	 * point in reports and the delay prompt. */
	char *old_ctype = xg_strdup(setlocale(LC_CTYPE, NULL));
	setlocale(LC_CTYPE, "");
	t.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	t.at = e->cfg ? e->cfg->at : 0;
	t.replay = (e->cfg && e->cfg->replay) || (e->ops && e->ops->name && !strcmp(e->ops->name, "replay"));
	if (e->notice[0])
		tui_set_msg(&t, true, "%s", e->notice);

	engine_history_on(e, e->cfg ? e->cfg->history : XG_HIST_DEFAULT);
	e->rows_on_demand = true;
	e->view.stable_live = true;   /* rows hold still here, not in batch output */
	e->view.contention_live = true;   /* the VICTIM column and the triage line */
	engine_suspects_on(e);
	int rc = tui_screen(&t, err);
	table_free(&t.detail.tb);
	free(t.detail.got);
	free(t.line_row);

	setlocale(LC_CTYPE, old_ctype);
	free(old_ctype);
	for (size_t i = 0; i < XG_ARRAY_LEN(tui_signals); i++)
		sigaction(tui_signals[i], &old[i], NULL);
	tui_sig_wfd = -1;
	close(pfd[0]);
	close(pfd[1]);
	if (!rc && t.fatal) {
		/* The loop gave up on the terminal (poll failed): say why. */
		xg_fail(err, "%s", t.msg);
		rc = 1;
	}
	return rc;
}
