// Inviting a person by name to a free seat of an open table (a signed-in person seated at it):
// the seat is held for them until they accept or decline in My games; an invitation sent may
// be withdrawn here.
import { useEffect, useState } from "preact/hooks";
import { together, type ApiError, type Invitation, type SeatMessage } from "../api";
import { useAccount } from "../account";

export function InviteByName({ message, seat }: { message: SeatMessage; seat: number | null }) {
  const account = useAccount();
  const [sent, setSent] = useState<Invitation[]>([]);
  const [name, setName] = useState("");
  const free = message.seats.filter((s) => s.kind === "person" && !s.taken);
  const held = new Set(sent.map((i) => i.seat));
  const open = free.filter((s) => !held.has(s.seat));
  const [chosen, setChosen] = useState<number | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = account && seat !== null && message.status === "open";
  const table = message.table;
  useEffect(() => {
    if (!shown) return;
    together.invitations().then(
      (found) => setSent(found.sent.filter((i) => i.table === table)),
      () => setSent([]),
    );
  }, [shown, table, message.seats.filter((s) => s.taken).length]);
  if (!shown || (free.length === 0 && sent.length === 0)) return null;
  const target = chosen !== null && open.some((s) => s.seat === chosen) ? chosen : (open[0]?.seat ?? null);
  const invite = async (event: Event) => {
    event.preventDefault();
    if (target === null) return;
    setError(null);
    setSaid(null);
    try {
      const made = await together.invite(table, target, name.trim());
      setSent([...sent, made]);
      setName("");
      setSaid(`Seat p${made.seat} is held for ${made.invited}: they accept it in My games.`);
    } catch (e) {
      setError((e as ApiError).message);
    }
  };
  const withdraw = async (invitation: Invitation) => {
    setError(null);
    try {
      await together.decline(invitation.id);
      setSent(sent.filter((i) => i.id !== invitation.id));
      setSaid(`The invitation of ${invitation.invited} is withdrawn: seat p${invitation.seat} is free.`);
    } catch (e) {
      setError((e as ApiError).message);
    }
  };
  return (
    <section class="panel" aria-labelledby="invite-name-heading">
      <h2 id="invite-name-heading">Invite a person by name</h2>
      {said && <p role="status">{said}</p>}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {sent.length > 0 && (
        <ul class="invitations-sent">
          {sent.map((invitation) => (
            <li key={invitation.id}>
              Seat p{invitation.seat} held for <strong>{invitation.invited}</strong>{" "}
              <button type="button" onClick={() => void withdraw(invitation)}>
                Withdraw
              </button>
            </li>
          ))}
        </ul>
      )}
      {open.length > 0 && (
        <form onSubmit={invite}>
          {open.length > 1 && (
            <div class="field">
              <label for="invite-seat">Seat</label>
              <select
                id="invite-seat"
                value={String(target)}
                onChange={(e) => setChosen(Number((e.target as HTMLSelectElement).value))}
              >
                {open.map((s) => (
                  <option key={s.seat} value={String(s.seat)}>
                    p{s.seat}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div class="field">
            <label for="invite-name">Their name</label>
            <input
              id="invite-name"
              required
              maxLength={64}
              autoComplete="off"
              value={name}
              onInput={(e) => setName((e.target as HTMLInputElement).value)}
            />
          </div>
          <button type="submit">Invite</button>
        </form>
      )}
    </section>
  );
}
