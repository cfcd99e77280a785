// The live view of a table over its WebSocket: the seat's (or a spectator's) latest view, the log
// and the story so far. A lost connection is made again, and resumes where it was: the events and
// lines held already are not sent again.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { ChatLine, ChatMessage, LogEvent, SeatMessage } from "../api";
import type { StoryLine } from "../shared/story";
import { useTransport } from "./transport";

export type Connection = "connecting" | "live" | "lost";

export function useLiveView(table: string, seat: number | null, token: string | null) {
  const [message, setMessage] = useState<SeatMessage | null>(null);
  const [log, setLog] = useState<LogEvent[]>([]);
  const [story, setStory] = useState<StoryLine[]>([]);
  const [receivedAt, setReceivedAt] = useState(0);
  const [connection, setConnection] = useState<Connection>("connecting");
  const [refused, setRefused] = useState<{ code: number; detail: string } | null>(null);
  const held = useRef<LogEvent[]>([]);
  const told = useRef<StoryLine[]>([]);
  // The table's chat: the lines had (by id, the hidden ones taken out), and why it is closed.
  const [chat, setChat] = useState<{ lines: ChatLine[]; closed: string | null }>({ lines: [], closed: null });
  const chatLines = useRef(new Map<number, ChatLine>());
  const readingSpectators = useRef(false);
  const live = useRef<WebSocket | null>(null);
  const views = useTransport().views;

  useEffect(() => {
    held.current = [];
    told.current = [];
    chatLines.current = new Map();
    let socket: WebSocket | null = null;
    let retry: number | undefined;
    let stopped = false;
    let failures = 0;

    const receive = (data: SeatMessage) => {
      failures = 0;
      setConnection("live");
      const known = held.current.slice(0, data.log_from);
      held.current = known.concat(data.log);
      setLog(held.current);
      // The lines told about the events before story_from are held already, and stay.
      told.current = told.current.filter(([index]) => index < data.story_from).concat(data.story);
      setStory(told.current);
      setMessage(data);
      setReceivedAt(performance.now());
    };
    if (views !== null) {
      // Not from a server: the same views, from their own source (the engine in this browser).
      return views.watch(seat, () => held.current.length, receive, (detail) => setRefused({ code: 0, detail }));
    }

    const connect = () => {
      setConnection(failures === 0 ? "connecting" : "lost");
      const scheme = window.location.protocol === "https:" ? "wss" : "ws";
      const url = `${scheme}://${window.location.host}/api/tables/${encodeURIComponent(table)}/ws`;
      const ws = new WebSocket(url);
      socket = ws;
      live.current = ws;
      ws.onopen = () => {
        // The log events held already are not sent again: a reconnection resumes from them.
        ws.send(JSON.stringify({ seat, token, since: held.current.length, chat: true }));
        if (readingSpectators.current) ws.send(JSON.stringify({ type: "chat-read", spectators: true }));
      };
      ws.onmessage = (event) => {
        const data = JSON.parse(event.data as string) as
          | ({ type: "view" } & SeatMessage)
          | ChatMessage
          | { type: "error"; detail: string };
        if (data.type === "error") {
          setRefused({ code: 0, detail: data.detail });
          return;
        }
        if (data.type === "chat") {
          const known = chatLines.current;
          for (const line of data.lines) known.set(line.id, line);
          for (const id of data.hidden) known.delete(id);
          const lines = [...known.values()].sort((a, b) => a.id - b.id);
          setChat({ lines, closed: data.closed });
          return;
        }
        if (data.type !== "view") return; // (a move's answer: this page moves over REST)
        receive(data);
      };
      ws.onclose = (event) => {
        if (stopped) return;
        if (event.code >= 4000 && event.code < 5000) {
          // Refused for good (no such table, a wrong token): reconnecting would not help.
          setRefused((known) => ({ code: event.code, detail: known?.detail ?? event.reason }));
          return;
        }
        failures += 1;
        setConnection("lost");
        retry = window.setTimeout(connect, Math.min(5000, 500 * 2 ** Math.min(failures, 4)));
      };
    };
    connect();
    return () => {
      stopped = true;
      window.clearTimeout(retry);
      socket?.close();
    };
  }, [table, seat, token, views]);

  /** Read the spectators' channel too (a seat chooses to; a spectator always does). */
  const readSpectators = useCallback((on: boolean) => {
    readingSpectators.current = on;
    const ws = live.current;
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "chat-read", spectators: on }));
  }, []);

  return { message, log, story, receivedAt, connection, refused, chat, readSpectators };
}

/** The time now, every quarter second while ``active`` (a clock runs): clocks count down between
 * two views. */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => setNow(performance.now()), 250);
    return () => window.clearInterval(timer);
  }, [active]);
  return now;
}
