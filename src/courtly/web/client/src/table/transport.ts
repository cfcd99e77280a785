// Where a table's page gets its views and sends its moves: a server (the WebSocket of live.ts and
// the REST API) or the engine in this browser (src/offline/transport.ts), so that the table's
// page and every board are written once for both. Given to the page by TransportContext.
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { api, type Hint, type MoveAnswer, type SeatMessage } from "../api";

/** A source of a seat's views other than the server's WebSocket. */
export interface ViewSource {
  /** Send ``seat``'s view after every change from now on (its log from ``since()``); ``onError``
   * is told why a view could not be made. Returns what stops it. */
  watch(
    seat: number | null,
    since: () => number,
    onView: (message: SeatMessage) => void,
    onError: (detail: string) => void,
  ): () => void;
}

export interface TableTransport {
  /** Whether the table lives on a server: its chat, invitations, rematches and deal checks. */
  online: boolean;
  /** The views' source; null: the server's WebSocket (live.ts). */
  views: ViewSource | null;
  move(table: string, seat: number, action: number, version: number, token: string): Promise<MoveAnswer>;
  hint(table: string, seat: number, version: number, token: string): Promise<Hint>;
}

export const SERVER: TableTransport = {
  online: true,
  views: null,
  move: (table, seat, action, version, token) => api.move(table, seat, action, version, token),
  hint: (table, seat, version, token) => api.hint(table, seat, version, token),
};

export const TransportContext = createContext<TableTransport>(SERVER);

export function useTransport(): TableTransport {
  return useContext(TransportContext);
}
