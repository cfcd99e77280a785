// The person's name, asked where they take a seat (the lobby's form, a seat's share link).

export function NameField({ id, name, onName }: { id: string; name: string; onName: (name: string) => void }) {
  return (
    <div class="field">
      <label for={id}>Your name</label>
      <input
        id={id}
        value={name}
        maxLength={64}
        autoComplete="nickname"
        onInput={(e) => onName((e.target as HTMLInputElement).value)}
      />
    </div>
  );
}
