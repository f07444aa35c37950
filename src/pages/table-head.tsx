// The header row every table on the service's pages has: one column header per name.

export function TableHead(props: { columns: readonly string[] }): JSX.Element {
  return (
    <thead>
      <tr>
        {props.columns.map((c) => (
          <th scope="col" safe>
            {c}
          </th>
        ))}
      </tr>
    </thead>
  )
}
