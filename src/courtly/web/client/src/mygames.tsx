// My games: the signed-in person's tables, their turn first, then in play, open, finished; on a
// page of its own (a header link away from every page) and at the top of the lobby.
import { useEffect, useState } from "preact/hooks";
import { people, together, type ApiError, type Invitation, type MyGames, type PersonGame } from "./api";
import { navigate, onLinkClick, replayPath, tablePath } from "./router";
import { KeptGames } from "./shared/kept-games";
import { Links, TO_THE_LOBBY } from "./shared/links";

const REFRESH_MS = 5000;

/** The person's tables, refreshed; null while loading, "guest" when nobody is signed in. */
function useMyGames(finished: number): MyGames | "guest" | null {
  const [games, setGames] = useState<MyGames | "guest" | null>(null);
  useEffect(() => {
    let stopped = false;
    const load = () =>
      people.myGames(finished).then(
        (found) => !stopped && setGames(found),
        (e: ApiError) => {
          if (!stopped && e.status === 401) setGames("guest");
        },
      );
    void load();
    const timer = window.setInterval(load, REFRESH_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [finished]);
  return games;
}

export function MyGamesPage() {
  const games = useMyGames(100);
  const [received, setReceived] = useInvitations();
  return (
    <div class="my-games-page">
      <h1>My games</h1>
      {games === null && <p role="status">Loading your games…</p>}
      {games === "guest" && <p>Sign in to see your games on any device.</p>}
      {games !== null && games !== "guest" && <InvitationsToMe received={received} setReceived={setReceived} />}
      {games !== null && games !== "guest" && <MyGamesTable games={games} />}
      <KeptGames />
      <Links links={[TO_THE_LOBBY]} />
    </div>
  );
}

/** The lobby's section: nothing for a guest, nor for a person with no table. */
export function MyGamesSection() {
  const games = useMyGames(5);
  const [received, setReceived] = useInvitations();
  if (games === null || games === "guest" || (games.tables.length === 0 && received.length === 0)) return null;
  return (
    <section aria-labelledby="my-games-heading" class="my-games">
      <h2 id="my-games-heading">My games</h2>
      <InvitationsToMe received={received} setReceived={setReceived} />
      {games.tables.length > 0 && <MyGamesTable games={games} />}
      <p>
        <a href="/my-games" onClick={onLinkClick}>
          All my games
        </a>
      </p>
    </section>
  );
}

function MyGamesTable({ games }: { games: MyGames }) {
  if (games.tables.length === 0) return <p>No table yet: make one in the lobby, or join one.</p>;
  return (
    <ul class="tables my-games-list">
      {games.tables.map((game) => (
        <li key={game.id} class={`panel${game.your_turn ? " your-turn" : ""}`} data-table={game.id}>
          <MyGame game={game} />
        </li>
      ))}
      {games.finished > games.tables.filter((t) => t.status === "over" || t.status === "closed").length && (
        <li class="muted">{games.finished} finished games in all.</li>
      )}
    </ul>
  );
}

function stateText(game: PersonGame): string {
  if (game.your_turn) return "Your turn";
  if (game.status === "playing") {
    const names = game.to_move.map((seat) => game.seats[seat]?.name || `p${seat}`);
    return names.length ? `Waiting for ${names.join(", ")}` : "In play";
  }
  if (game.status === "open") return "Waiting for players";
  if (game.status === "closed") return "Closed";
  const mine = game.seats.filter((s) => game.mine.includes(s.seat));
  return mine.some((s) => s.place === 1) ? "Won" : "Lost";
}

function clockText(seconds: number): string {
  if (seconds >= 86400) return `${Math.floor(seconds / 86400)} d ${Math.floor((seconds % 86400) / 3600)} h left`;
  if (seconds >= 3600) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min left`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.floor(seconds % 60);
  return `${minutes}:${String(rest).padStart(2, "0")} left`;
}

function MyGame({ game }: { game: PersonGame }) {
  const seat = game.mine[0] ?? null;
  const over = game.status === "over" || game.status === "closed";
  const path = game.status === "over" ? replayPath(game.id) : tablePath(game.id, seat);
  return (
    <>
      <strong class="my-game-state">{stateText(game)}</strong> · {game.title}
      {game.rated ? " (rated)" : ""} · {game.seats.map((s) => s.name || "free seat").join(", ")}
      {!over && game.time_left !== null && <> · {clockText(game.time_left)}</>}{" "}
      <a class="button" href={path} onClick={onLinkClick}>
        {game.status === "over" ? "Replay" : game.status === "closed" ? "See" : game.your_turn ? "Play" : "Open"}
      </a>
    </>
  );
}

/** The invitations to the person, refreshed as My games is (empty for a guest). */
function useInvitations(): [Invitation[], (received: Invitation[]) => void] {
  const [received, setReceived] = useState<Invitation[]>([]);
  useEffect(() => {
    let stopped = false;
    const load = () =>
      together.invitations().then(
        (found) => !stopped && setReceived(found.received),
        () => undefined,
      );
    void load();
    const timer = window.setInterval(load, REFRESH_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, []);
  return [received, setReceived];
}

/** Each invitation a seat held for the person: accepted (the table opens at that seat) or
 * declined. Nothing when there is none. */
function InvitationsToMe({
  received,
  setReceived,
}: {
  received: Invitation[];
  setReceived: (received: Invitation[]) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  if (received.length === 0 && !error) return null;
  const accept = async (invitation: Invitation) => {
    setError(null);
    try {
      await together.accept(invitation.id);
      navigate(tablePath(invitation.table, invitation.seat));
    } catch (e) {
      setError((e as ApiError).message);
    }
  };
  const decline = async (invitation: Invitation) => {
    setError(null);
    try {
      await together.decline(invitation.id);
      setReceived(received.filter((i) => i.id !== invitation.id));
    } catch (e) {
      setError((e as ApiError).message);
    }
  };
  return (
    <div class="invitations" aria-label="Invitations">
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <ul class="tables">
        {received.map((invitation) => (
          <li key={invitation.id} class="panel invitation" data-invitation={invitation.id}>
            <strong>{invitation.inviter}</strong> invites you to {invitation.title} (seat p{invitation.seat}){" "}
            <button type="button" onClick={() => void accept(invitation)}>
              Accept
            </button>{" "}
            <button type="button" onClick={() => void decline(invitation)}>
              Decline
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
