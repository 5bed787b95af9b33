import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/contracts/auth";

/** What a new account needs: the fields of the setup page and of an accepted invitation. */
export interface NewAccount {
  email: string;
  name: string;
  password: string;
}

/** The email, name and password inputs of a new account (limits as the API checks them). */
export function NewAccountFields({ value, onChange }: { value: NewAccount; onChange: (next: NewAccount) => void }) {
  return (
    <>
      <label>
        Email
        <input type="email" autoComplete="username" value={value.email} onChange={(e) => onChange({ ...value, email: e.target.value })} required maxLength={254} />
      </label>
      <label>
        Name
        <input autoComplete="name" value={value.name} onChange={(e) => onChange({ ...value, name: e.target.value })} required maxLength={100} />
      </label>
      <label>
        Password (at least {PASSWORD_MIN_LENGTH} characters)
        <input
          type="password"
          autoComplete="new-password"
          value={value.password}
          onChange={(e) => onChange({ ...value, password: e.target.value })}
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
        />
      </label>
    </>
  );
}
