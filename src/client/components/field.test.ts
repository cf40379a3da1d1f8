import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Field, type FieldProps } from "./field";

const html = (props: FieldProps) => renderToStaticMarkup(createElement(Field, props));

describe("Field", () => {
  it("labels an input and wires its hint", () => {
    const out = html({ id: "email", label: "Email", hint: "We never share it.", name: "email" });
    expect(out).toContain('<label for="email" class="mb-1 block text-sm font-medium">Email</label>');
    expect(out).toContain('id="email"');
    expect(out).toContain('aria-describedby="email-hint"');
    expect(out).not.toContain("aria-invalid");
    expect(out).toContain('<p id="email-hint"');
  });

  it("shows an error, marks the control invalid and reads the error before the hint", () => {
    const out = html({ id: "email", label: "Email", hint: "Hint", error: "Email is required" });
    expect(out).toContain('aria-invalid="true"');
    expect(out).toContain('aria-describedby="email-error email-hint"');
    expect(out).toContain('<p id="email-error" class="mt-1 text-sm text-error">Email is required</p>');
    expect(out).toContain("input-error");
  });

  it("marks a required field on the label (not in its text) and on the control", () => {
    const out = html({ id: "title", label: "Title", required: true });
    expect(out).toContain('class="mb-1 block text-sm font-medium field-required">Title</label>');
    expect(out).toContain('aria-required="true"');
    expect(out).toContain('required=""');
  });

  it("says (optional) after an optional field's label, hidden from its accessible name", () => {
    expect(html({ id: "name", label: "Full Name", optional: true })).toContain(
      'Full Name<span aria-hidden="true" class="ml-1 text-xs text-base-content/60">(optional)</span>',
    );
  });

  it("renders a textarea or a select with the daisyUI classes for its state", () => {
    const textarea = html({ as: "textarea", id: "d", label: "Description", error: "Too long", rows: 4 });
    expect(textarea).toMatch(/<textarea[^>]*rows="4"[^>]*class="textarea w-full textarea-error"/);
    const select = html({
      as: "select",
      id: "s",
      label: "Status",
      className: "sm:w-60",
      children: createElement("option", { value: "draft" }, "Draft"),
    });
    expect(select).toMatch(/<select[^>]*class="select w-full sm:w-60"><option value="draft">Draft<\/option>/);
  });

  it("hands a custom control the field's wiring", () => {
    const out = html({
      id: "tags",
      label: "Tags",
      labelHidden: true,
      error: "At most 20 tags are allowed",
      as: "custom",
      render: (control) => createElement("input", { ...control, className: "input" }),
    });
    expect(out).toContain('<label for="tags" class="sr-only">Tags</label>');
    expect(out).toContain(
      '<input id="tags" aria-invalid="true" aria-describedby="tags-error" class="input"/>',
    );
  });
});
