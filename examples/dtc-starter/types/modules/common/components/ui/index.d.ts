// apps/storefront/src/modules/common/components/ui/index.tsx (the starter's own UI kit, not @medusajs/ui)
import clsx from "clsx"
import { ButtonHTMLAttributes, ForwardRefExoticComponent, HTMLAttributes, RefAttributes } from "react"

export { clsx as clx }

type TextProps = HTMLAttributes<HTMLParagraphElement> & { as?: "p" | "span" | "div" }
export declare const Text: ForwardRefExoticComponent<TextProps & RefAttributes<HTMLParagraphElement>>

type HeadingProps = HTMLAttributes<HTMLHeadingElement> & { level?: "h1" | "h2" | "h3" }
export declare const Heading: ForwardRefExoticComponent<HeadingProps & RefAttributes<HTMLHeadingElement>>

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: "primary" | "secondary" | "transparent"
  size?: "small" | "medium" | "large"
  isLoading?: boolean
}
export declare const Button: ForwardRefExoticComponent<ButtonProps & RefAttributes<HTMLButtonElement>>

type ContainerProps = HTMLAttributes<HTMLDivElement>
export declare const Container: ForwardRefExoticComponent<ContainerProps & RefAttributes<HTMLDivElement>>
